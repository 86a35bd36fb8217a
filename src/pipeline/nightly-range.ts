import { listValue } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { uncovered, type Window } from '../time/window.js';
import type { StreamDef } from '../streams/stream.js';
import { readCoverage } from '../warehouse/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';

const DAY_MS = 86_400_000;
/**
 * Statuses that can still change, per stream (docs/platform.md, "Statuses that can still change"): a
 * record in one of them is read again by nightly until it is final.
 */
export const OPEN_STATUSES: Readonly<Record<string, readonly string[]>> = {
  withdrawals: ['pending', 'pending_review'],
  deposits: ['pending'],
};

/** A covered window of one stream that holds a record whose status may still change. */
export interface PendingWindow {
  stream: string;
  window: Window;
}

export interface NightlyPlan {
  /** The range to read: from the end of coverage, less the look-back, to now. */
  range: Window;
  /**
   * Windows outside it to read again: those that still hold a withdrawal or deposit whose status may change,
   * and the unfinished windows of a partition that has no finished one.
   */
  pendingWindows: PendingWindow[];
}

/**
 * Where a nightly run starts: over the partitions of `streams`, the first instant not covered since the
 * history began (the earliest range a run asked for, or the earliest covered window), less the look-back; it
 * ends now. A window an earlier run left unfinished, or a gap, is therefore read again rather than skipped.
 * Fails when a partition has no coverage yet (a first run needs --from or year-end).
 */
export async function planNightly(
  warehouse: Warehouse,
  options: { account: string; streams: readonly StreamDef[]; lookBackDays: number; now: number; refreshPending: boolean },
): Promise<NightlyPlan> {
  return warehouse.exclusive(async (c) => {
    const firstAsked = (
      await c.runAndReadAll('SELECT min(epoch_ms(range_from)) AS s FROM runs WHERE account = $account AND range_from IS NOT NULL', { account: options.account })
    ).getRowObjectsJS()[0]?.['s'];
    const ends: number[] = [];
    const pendingWindows: PendingWindow[] = [];
    for (const stream of options.streams) {
      if (stream.kind !== 'paged') continue;
      const coverage = await readCoverage(c, options.account, stream.name);
      const rows = coverage.filter((r) => r.status === 'done');
      for (const partition of stream.partitions) {
        const done = rows.filter((r) => r.partition === partition.name);
        const open = coverage.filter((r) => r.partition === partition.name && r.status === 'open');
        if (done.length === 0 && open.length > 0) {
          // Only unfinished windows (a partition an upgrade added, sql/warehouse/002_second_release.sql): they are
          // read again where they lie, instead of moving the whole nightly range back to them, and the range
          // goes on from their end.
          const window = { start: Math.min(...open.map((r) => r.window.start)), end: Math.max(...open.map((r) => r.window.end)) };
          if (!pendingWindows.some((p) => p.stream === stream.name && p.window.start === window.start && p.window.end === window.end)) {
            pendingWindows.push({ stream: stream.name, window });
          }
          ends.push(window.end);
          continue;
        }
        if (done.length === 0) {
          throw new UsageError(
            `nightly starts where earlier runs stopped, but account ${options.account} has no coverage of ${stream.name}${partition.name === '' ? '' : ` ${partition.name}`} yet; run year-end first, or give --from`,
          );
        }
        const windows = done.map((r) => r.window);
        const historyStart = Math.min(...windows.map((w) => w.start), firstAsked === null || firstAsked === undefined ? Infinity : Number(firstAsked));
        ends.push(uncovered(historyStart, options.now, windows)[0]?.start ?? options.now);
      }
    }
    const start = Math.min(Math.min(...ends) - options.lookBackDays * DAY_MS, options.now - 1);
    const range = { start, end: options.now };
    for (const [stream, statuses] of Object.entries(OPEN_STATUSES)) {
      if (!options.refreshPending || !options.streams.some((s) => s.name === stream)) continue;
      const reader = await c.runAndReadAll(
        `SELECT epoch_ms(r.ts) AS t, epoch_ms(c.window_start) AS s, epoch_ms(c.window_end) AS e
         FROM raw_records AS r
         JOIN coverage AS c ON c.account = r.account AND c.stream = r.stream AND c.status = 'done'
           AND r.ts >= c.window_start AND r.ts < c.window_end
         WHERE r.account = $account AND r.stream = $stream
           AND list_contains($statuses, json_extract_string(r.payload, '$.status'))
         ORDER BY s`,
        { account: options.account, stream, statuses: listValue([...statuses]) },
      );
      for (const row of reader.getRowObjectsJS()) {
        const window = { start: Number(row['s']), end: Number(row['e']) };
        const inRange = Number(row['t']) >= range.start && Number(row['t']) < range.end;
        const known = pendingWindows.some((p) => p.stream === stream && p.window.start === window.start && p.window.end === window.end);
        if (!inRange && !known) pendingWindows.push({ stream, window });
      }
    }
    return { range, pendingWindows };
  });
}
