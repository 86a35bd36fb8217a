import type { Stage } from '../reads/runs.js';

/**
 * The stages a run carries out, decided once from its pipeline's list (docs/pipelines.md). Whatever their order
 * there, a run goes extract, transform, prices, export; `first` is the stage named first, at which the rows of a
 * run that does not extract start in `runs`.
 */
export interface StagePlan {
  readonly extract: boolean;
  readonly transform: boolean;
  readonly prices: boolean;
  readonly export: boolean;
  readonly first: Stage;
}

/**
 * The plan of a pipeline's `stages` (checked non-empty when the pipeline was loaded: pipeline/define.ts).
 *
 * @example
 * planStages(['transform', 'export']); // { extract: false, transform: true, prices: false, export: true, first: 'transform' }
 */
export function planStages(stages: readonly Stage[]): StagePlan {
  const has = new Set(stages);
  return {
    extract: has.has('extract'),
    transform: has.has('transform'),
    prices: has.has('prices'),
    export: has.has('export'),
    first: stages[0] as Stage,
  };
}
