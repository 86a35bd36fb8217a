import { describe, expect, it } from 'vitest';
import { planStages } from '../../src/pipeline/stage-plan.js';

describe('planStages', () => {
  it('says which stages a run carries out, whatever their order in the pipeline', () => {
    expect(planStages(['export', 'extract'])).toEqual({
      extract: true,
      transform: false,
      prices: false,
      export: true,
      first: 'export',
    });
    expect(planStages(['extract', 'transform', 'prices', 'export'])).toEqual({
      extract: true,
      transform: true,
      prices: true,
      export: true,
      first: 'extract',
    });
  });

  it('names the stage listed first: a run that does not extract starts its rows in `runs` there', () => {
    expect(planStages(['transform']).first).toBe('transform');
    expect(planStages(['prices', 'transform']).first).toBe('prices');
  });
});
