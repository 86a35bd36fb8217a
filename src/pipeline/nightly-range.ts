import { UsageError } from '../errors/usage-error.js';
import type { Window } from '../extract/window-planner.js';
import type { StreamDef } from '../streams/stream.js';
import { readCoverage } from '../warehouse/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';

const DAY_MS = 86_400_000;
/** Withdrawal statuses that can still change (rest-interface.md, "States"): the rest are final. */
export const OPEN_WITHDRAWAL_STATUSES = ['pending', 'pending_review'] as const;

export interface NightlyPlan {
  /** The range to read: from the end of coverage, less the look-back, to now. */
  range: Window;
  /** Windows outside it that still hold a withdrawal whose status may change, to read again. */
  pendingWithdrawalWindows: Window[];
}

/**
 * Where a nightly run starts: the earliest end of covered history over the partitions of `streams`, less the
 * look-back; it ends now. Fails when a partition has no coverage yet (a first run needs --from or year-end).
 */
export async function planNightly(
  warehouse: Warehouse,
  options: { account: string; streams: readonly StreamDef[]; lookBackDays: number; now: number; refreshPending: boolean },
): Promise<NightlyPlan> {
  return warehouse.exclusive(async (c) => {
    const ends: number[] = [];
    for (const stream of options.streams) {
      if (stream.kind !== 'paged') continue;
      const rows = (await readCoverage(c, options.account, stream.name)).filter((r) => r.status === 'done');
      for (const partition of stream.partitions) {
        const done = rows.filter((r) => r.partition === partition.name);
        if (done.length === 0) {
          throw new UsageError(
            `nightly starts where earlier runs stopped, but account ${options.account} has no coverage of ${stream.name}${partition.name === '' ? '' : ` ${partition.name}`} yet; run year-end first, or give --from`,
          );
        }
        ends.push(Math.max(...done.map((r) => r.window.end)));
      }
    }
    const start = Math.min(Math.min(...ends) - options.lookBackDays * DAY_MS, options.now - 1);
    const range = { start, end: options.now };
    const pendingWithdrawalWindows: Window[] = [];
    if (options.refreshPending && options.streams.some((s) => s.name === 'withdrawals')) {
      const reader = await c.runAndReadAll(
        `SELECT epoch_ms(r.ts) AS t, epoch_ms(c.window_start) AS s, epoch_ms(c.window_end) AS e
         FROM raw_records AS r
         JOIN coverage AS c ON c.account = r.account AND c.stream = r.stream AND c.status = 'done'
           AND r.ts >= c.window_start AND r.ts < c.window_end
         WHERE r.account = $account AND r.stream = 'withdrawals'
           AND json_extract_string(r.payload, '$.status') IN (${OPEN_WITHDRAWAL_STATUSES.map((s) => `'${s}'`).join(', ')})
         ORDER BY s`,
        { account: options.account },
      );
      for (const row of reader.getRowObjectsJS()) {
        const w = { start: Number(row['s']), end: Number(row['e']) };
        const inRange = Number(row['t']) >= range.start && Number(row['t']) < range.end;
        if (!inRange && !pendingWithdrawalWindows.some((p) => p.start === w.start && p.end === w.end)) pendingWithdrawalWindows.push(w);
      }
    }
    return { range, pendingWithdrawalWindows };
  });
}
