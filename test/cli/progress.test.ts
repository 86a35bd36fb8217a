import { describe, expect, it } from 'vitest';
import { emptyStreamStats } from '../../src/extract/stats.js';
import { createLogger } from '../../src/util/logger.js';
import { periodicProgress } from '../../src/cli/progress.js';
import { fakeClock } from '../helpers/fake-clock.js';

describe('progress off a terminal', () => {
  it('writes one line per stream every 5 s and one when it finishes, as JSON for machines', () => {
    const clock = fakeClock(Date.UTC(2026, 0, 1));
    const lines: string[] = [];
    const progress = periodicProgress(
      createLogger({ format: 'json', write: (l) => lines.push(l), clock: clock.now }),
      clock.now,
    );
    const stats = { ...emptyStreamStats(), windowsPlanned: 10 };
    progress.update('default', 'withdrawals', { ...stats });
    clock.advance(1000);
    progress.update('default', 'withdrawals', { ...stats, windowsDone: 2, records: 150, requests: 4 });
    clock.advance(4000);
    progress.update('default', 'withdrawals', { ...stats, windowsDone: 5, records: 300, requests: 10, retries: 1 });
    clock.advance(1000);
    progress.update('default', 'withdrawals', { ...stats, windowsDone: 10, records: 600, requests: 20, retries: 1 });
    clock.advance(1000);
    progress.update('default', 'withdrawals', { ...stats, windowsDone: 10, records: 600, requests: 20, retries: 1 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        time: '2026-01-01T00:00:05.000Z',
        level: 'info',
        msg: 'default/withdrawals: 5/10 windows, 300 records',
        reqPerSec: 2,
        retries: 1,
        etaSeconds: 5,
      },
      {
        time: '2026-01-01T00:00:06.000Z',
        level: 'info',
        msg: 'default/withdrawals: 10/10 windows, 600 records',
        reqPerSec: 3.3,
        retries: 1,
        etaSeconds: 0,
      },
    ]);
  });

  it('writes plain lines for people, and nothing but errors when quiet', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'pretty', write: (l) => lines.push(l) });
    log.info('window done', { stream: 'withdrawals', records: 12 });
    log.warn('narrowed');
    const quiet = createLogger({ format: 'pretty', quiet: true, write: (l) => lines.push(l) });
    quiet.info('hidden');
    quiet.error('shown');
    expect(lines).toEqual(['window done (stream=withdrawals records=12)', 'warn: narrowed', 'error: shown']);
  });
});
