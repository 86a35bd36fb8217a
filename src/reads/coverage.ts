import type { DuckDBConnection } from '@duckdb/node-api';
import { STREAMS } from '../streams/index.js';
import { readFor, type PagedStreamDef } from '../streams/stream.js';
import { readAccountModes } from './account-modes.js';
import { mergeWindows, uncovered, type Window } from '../time/window.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface CoverageRow {
  partition: string;
  window: Window;
  /** unreachable: refused as older than the platform reaches (docs/history.md). */
  status: 'open' | 'done' | 'unreachable';
  cursor: string | null;
}

/** Every coverage window of one account's stream. */
export async function readCoverage(
  connection: DuckDBConnection,
  account: string,
  stream: string,
): Promise<CoverageRow[]> {
  const reader = await connection.runAndReadAll(
    `SELECT partition, epoch_ms(window_start) AS start_ms, epoch_ms(window_end) AS end_ms, status, cursor
     FROM coverage WHERE account = $account AND stream = $stream ORDER BY partition, window_start`,
    { account, stream },
  );
  return reader.getRowObjectsJS().map((r) => ({
    partition: String(r['partition']),
    window: { start: Number(r['start_ms']), end: Number(r['end_ms']) },
    status: r['status'] === 'done' ? 'done' : r['status'] === 'unreachable' ? 'unreachable' : 'open',
    cursor: r['cursor'] === null ? null : String(r['cursor']),
  }));
}

/** Forgets a window (its records stay): used when a window is split into narrower ones. */
export async function dropWindow(
  connection: DuckDBConnection,
  account: string,
  stream: string,
  partition: string,
  window: Window,
): Promise<void> {
  await connection.run(
    `DELETE FROM coverage WHERE account = $account AND stream = $stream AND partition = $partition
     AND window_start = $start AND window_end = $end`,
    { account, stream, partition, start: timestampTz(window.start), end: timestampTz(window.end) },
  );
}

/**
 * Writes on the unreachable windows of an account's stream the earliest instant the platform answered for their
 * partition: the end of the last of them (docs/history.md).
 */
export async function markEarliestReachable(
  connection: DuckDBConnection,
  account: string,
  stream: string,
): Promise<void> {
  await connection.run(
    `UPDATE coverage AS c SET earliest_reachable = m.reach
     FROM (SELECT partition, max(window_end) AS reach FROM coverage WHERE account = $account AND stream = $stream AND status = 'unreachable' GROUP BY partition) AS m
     WHERE c.account = $account AND c.stream = $stream AND c.partition = m.partition AND c.status = 'unreachable'`,
    { account, stream },
  );
}

/** The earliest instant the platform answered, per stream of an account whose history it does not reach in full. */
export async function readEarliestReachable(
  connection: DuckDBConnection,
  account: string,
): Promise<Map<string, number>> {
  const reader = await connection.runAndReadAll(
    // The end of the last unreachable window where a killed run left its mark unwritten (markEarliestReachable).
    `SELECT stream, epoch_ms(max(coalesce(earliest_reachable, window_end))) FROM coverage WHERE account = $account AND status = 'unreachable' GROUP BY stream`,
    { account },
  );
  return new Map(reader.getRows().map((r) => [String(r[0]), Number(r[1])]));
}

/** The narrower window the server taught for this stream, if any. */
export async function readLearnedWindow(
  connection: DuckDBConnection,
  account: string,
  stream: string,
): Promise<number | undefined> {
  const reader = await connection.runAndReadAll(
    'SELECT window_ms FROM learned_windows WHERE account = $account AND stream = $stream',
    { account, stream },
  );
  const row = reader.getRowObjectsJS()[0];
  return row === undefined ? undefined : Number(row['window_ms']);
}

export async function saveLearnedWindow(
  connection: DuckDBConnection,
  entry: { account: string; stream: string; windowMs: number; reason: string; now: number },
): Promise<void> {
  await connection.run(
    `INSERT INTO learned_windows (account, stream, window_ms, reason, learned_at) VALUES ($account, $stream, $ms, $reason, $now)
     ON CONFLICT (account, stream) DO UPDATE SET window_ms = excluded.window_ms, reason = excluded.reason, learned_at = excluded.learned_at`,
    {
      account: entry.account,
      stream: entry.stream,
      ms: BigInt(entry.windowMs),
      reason: entry.reason,
      now: timestampTz(entry.now),
    },
  );
}

/** How much of a range one account's stream has read: its covered spans and its gaps (partitions merged). */
export interface StreamCoverage {
  account: string;
  stream: string;
  covered: Window[];
  gaps: Window[];
  /** The windows of the gaps the platform refused as older than it reaches (docs/history.md). */
  unreachable: Window[];
}

/**
 * One paged stream's coverage of `range` up to `end`, from the rows of its coverage: the spans every partition has
 * read, the gaps, and the gaps the platform refused as out of its reach; undefined for a stream the account opts in
 * to and never read.
 */
function coverageOfStream(
  stream: PagedStreamDef,
  coverage: Awaited<ReturnType<typeof readCoverage>>,
  { range, end }: { range: Window; end: number },
): Omit<StreamCoverage, 'account' | 'stream'> | undefined {
  // A stream the account's config opts in to (copy projects, a lead trader) is read only when it says so: one
  // it never read is not one of the account's, even when --streams names it.
  if (stream.optIn !== undefined && coverage.length === 0) return undefined;
  const done = (partition: string) =>
    coverage.filter((r) => r.partition === partition && r.status === 'done').map((r) => r.window);
  // A copy stream's partitions are the projects it was read for (its config's), as its coverage names them.
  const partitions =
    stream.optIn === 'copyProjects'
      ? [...new Set(coverage.map((r) => r.partition))]
      : stream.partitions.map((p) => p.name);
  const gaps = mergeWindows(partitions.flatMap((p) => uncovered(range.start, end, done(p))));
  // Covered: what every partition has read, within the range.
  const covered = uncovered(range.start, range.end, gaps).filter((w) => w.start < end);
  const unreachable = mergeWindows(
    coverage
      .filter((r) => r.status === 'unreachable' && r.window.start < end && r.window.end > range.start)
      .map((r) => r.window),
  );
  return { covered: covered.map((w) => ({ start: w.start, end: Math.min(w.end, end) })), gaps, unreachable };
}

/**
 * What the warehouse holds of `range` for files to be complete (docs/exit-codes.md, "The gap rule"): per account and
 * paged stream, the spans finished windows cover and the gaps between them. The streams checked are `streams`, else
 * every paged stream the warehouse holds for the account; snapshots (account_balances) are not subject to it. Each
 * account is checked up to its `end` (where this run's extraction stopped: the platform's present), else up to `now`:
 * what has not happened yet is no gap.
 */
export async function coverageOfRange(
  warehouse: Warehouse,
  options: {
    range: Window;
    now: number;
    accounts?: readonly { name: string; end: number }[];
    streams?: readonly string[];
  },
): Promise<StreamCoverage[]> {
  return warehouse.exclusive(async (c) => {
    const accounts =
      options.accounts ??
      (await c.runAndReadAll('SELECT DISTINCT account FROM coverage ORDER BY 1'))
        .getRows()
        .map((r) => ({ name: String(r[0]), end: options.now }));
    const out: StreamCoverage[] = [];
    const modes = await readAccountModes(c);
    for (const account of accounts) {
      // Only the streams of the account's kind (docs/unified-accounts.md): it never reads the others.
      const mode = modes.get(account.name) ?? 'classic';
      const end = Math.max(options.range.start, Math.min(options.range.end, account.end));
      const held =
        options.streams === undefined
          ? new Set(
              (await c.runAndReadAll('SELECT DISTINCT stream FROM coverage WHERE account = $a', { a: account.name }))
                .getRows()
                .map((r) => String(r[0])),
            )
          : undefined;
      for (const stream of STREAMS) {
        if (
          stream.kind !== 'paged' ||
          !readFor(stream, mode) ||
          !(options.streams?.includes(stream.name) ?? held?.has(stream.name) === true)
        )
          continue;
        const coverage = await readCoverage(c, account.name, stream.name);
        const found = coverageOfStream(stream as PagedStreamDef, coverage, { range: options.range, end });
        if (found !== undefined) out.push({ account: account.name, stream: stream.name, ...found });
      }
    }
    return out;
  });
}
