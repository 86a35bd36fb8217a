import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '../duckdb/duckdb.js';
import { UsageError } from '../errors/usage-error.js';
import { uncovered, type Window } from '../time/window.js';
import { OPEN_STATUSES } from '../streams/open-statuses.js';
import { streamsForAccount, type CopyTrading, type StreamDef } from '../streams/stream.js';
import { readAccountMode } from '../reads/account-modes.js';
import { readCoverage, type CoverageRow } from '../reads/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';

const DAY_MS = 86_400_000;

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
export async function planNightly(warehouse: Warehouse, options: NightlyOptions): Promise<NightlyPlan> {
  return warehouse.exclusive(async (c) => {
    const firstAsked = (
      await c.runAndReadAll(
        'SELECT min(epoch_ms(range_from)) AS s FROM runs WHERE account = $account AND range_from IS NOT NULL',
        { account: options.account },
      )
    ).getRowObjectsJS()[0]?.['s'];
    const history = firstAsked === null || firstAsked === undefined ? Infinity : Number(firstAsked);
    const pendingWindows: PendingWindow[] = [];
    const addPending = (pending: PendingWindow): void => {
      const same = (p: PendingWindow) =>
        p.stream === pending.stream && p.window.start === pending.window.start && p.window.end === pending.window.end;
      if (!pendingWindows.some(same)) pendingWindows.push(pending);
    };
    const ends: number[] = [];
    // The streams of the account's kind (docs/unified-accounts.md): the others it never reads.
    const mode = await readAccountMode(c, options.account);
    for (const stream of streamsForAccount(options.streams, mode, options.copyTrading)) {
      if (stream.kind !== 'paged') continue;
      const coverage = await readCoverage(c, options.account, stream.name);
      for (const partition of stream.partitions)
        ends.push(coverageEnd(stream.name, partition.name, coverage, { history, addPending, ...options }));
    }
    const start = Math.min(Math.min(...ends) - options.lookBackDays * DAY_MS, options.now - 1);
    const range = { start, end: options.now };
    if (options.refreshPending) {
      for (const pending of await windowsStillPending(c, options, range)) addPending(pending);
    }
    return { range, pendingWindows };
  });
}

interface NightlyOptions {
  account: string;
  /** What the account's config says of its copy trading: the copy streams it reads (streamsForAccount). */
  copyTrading?: CopyTrading | undefined;
  streams: readonly StreamDef[];
  lookBackDays: number;
  now: number;
  refreshPending: boolean;
}

/**
 * Where one partition's coverage ends: the first gap after the start of its history (the earliest of its
 * windows and of the ranges runs asked for), or `now`. A partition with only unfinished windows (one an upgrade
 * added, sql/warehouse/002_second_release.sql) has them read again where they lie, instead of moving the whole
 * nightly range back to them, and the range goes on from their end. One with nothing is an error.
 */
function coverageEnd(
  stream: string,
  partition: string,
  coverage: readonly CoverageRow[],
  context: { account: string; now: number; history: number; addPending: (p: PendingWindow) => void },
): number {
  const done = coverage.filter((r) => r.partition === partition && r.status === 'done').map((r) => r.window);
  const open = coverage.filter((r) => r.partition === partition && r.status === 'open').map((r) => r.window);
  if (done.length === 0 && open.length > 0) {
    const window = { start: Math.min(...open.map((w) => w.start)), end: Math.max(...open.map((w) => w.end)) };
    context.addPending({ stream, window });
    return window.end;
  }
  if (done.length === 0) {
    throw new UsageError(
      `nightly starts where earlier runs stopped, but account ${context.account} has no coverage of ${stream}${partition === '' ? '' : ` ${partition}`} yet; run year-end first, or give --from`,
    );
  }
  const historyStart = Math.min(...done.map((w) => w.start), context.history);
  return uncovered(historyStart, context.now, done)[0]?.start ?? context.now;
}

/** Covered windows outside `range` that hold a record whose status may still change (OPEN_STATUSES). */
async function windowsStillPending(
  c: DuckDBConnection,
  options: NightlyOptions,
  range: Window,
): Promise<PendingWindow[]> {
  const out: PendingWindow[] = [];
  for (const [stream, statuses] of Object.entries(OPEN_STATUSES)) {
    if (!options.streams.some((s) => s.name === stream)) continue;
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
      const inRange = Number(row['t']) >= range.start && Number(row['t']) < range.end;
      if (!inRange) out.push({ stream, window: { start: Number(row['s']), end: Number(row['e']) } });
    }
  }
  return out;
}
