import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '../duckdb/duckdb.js';
import { hasTables } from '../duckdb/tables.js';

/**
 * What the warehouse keeps of the gains engine between runs (docs/gains.md, "Kept, not recomputed";
 * sql/warehouse/016_gains_kept.sql): the computation's inputs (a fingerprint), the head (every movement before it
 * taken in), and the engine's state per pool and asset at the head and at each month's start, so that a run goes on
 * from the last of those instants that nothing changed before, instead of from the first movement.
 */

/** The last computation, as table gains_kept records it. */
export interface KeptComputation {
  fingerprint: string;
  head: number;
  until: number | null;
  openAt: number | null;
}

/** What a run asks of the engine: its inputs' fingerprint, and its range's end (and the UK rules' openAt). */
export interface KeptRun {
  fingerprint: string;
  until: number | null;
  openAt: number | null;
  uk: boolean;
}

/** Where a run starts: from the first movement (and why), or from a kept instant. */
export type Restart = { from: null; why: string } | { from: number; kept: KeptComputation; changed: boolean };

const DAY_MS = 86_400_000;

/**
 * The instant a run goes on from (src/gains/gains.ts; docs/gains.md, "Kept, not recomputed"): the last kept instant
 * at or before the earliest of
 * - the head (everything before it taken in),
 * - the earliest change noted since (ledger_changes: the transform's rows, the prices' candles),
 * - the run's end, when it is before the head (an earlier range: what is kept after it is not this run's),
 * - for the UK rules, a day before the run's end, so that no day closed in the state kept begins at or after the
 *   range's end (openAt, 30 days before it): the pool open at it is then taken when that day closes.
 * From the first movement when nothing is kept, the fingerprint differs (a setting, the opening lots, the
 * catalog's meanings, the routes or rates of prices, the engine: KEPT_ENGINE), the whole ledger was made again,
 * or no kept instant is early enough. `changed`: a change was noted, or the run's end is before the head.
 */
export async function planRestart(c: DuckDBConnection, run: KeptRun): Promise<Restart> {
  const kept = await readKept(c);
  if (kept === undefined) return { from: null, why: 'nothing kept' };
  if (kept.fingerprint !== run.fingerprint) return { from: null, why: 'the inputs changed' };
  if (!(await hasTables(c, ['disposals', 'lots']))) return { from: null, why: 'the tables are gone' };
  const marks = await readMarks(c);
  if (marks.whole) return { from: null, why: 'the whole ledger was made again' };
  let limit = kept.head;
  if (marks.since !== null) limit = Math.min(limit, marks.since);
  const earlier = run.until !== null && run.until < kept.head;
  if (earlier) limit = Math.min(limit, run.until as number);
  if (run.uk && run.until !== null) limit = Math.min(limit, run.until - DAY_MS);
  const point = (
    await c.runAndReadAll('SELECT max(at_ms) FROM gains_kept_points WHERE at_ms <= $limit', { limit: BigInt(limit) })
  ).getRows()[0]?.[0];
  if (point === null || point === undefined) return { from: null, why: 'no kept instant is early enough' };
  return { from: Number(point), kept, changed: marks.since !== null || earlier || limit < kept.head };
}

/** The row of gains_kept, if any. */
async function readKept(c: DuckDBConnection): Promise<KeptComputation | undefined> {
  const row = (
    await c.runAndReadAll('SELECT fingerprint, head_ms, until_ms, open_at_ms FROM gains_kept LIMIT 1')
  ).getRows()[0];
  if (row === undefined) return undefined;
  const optional = (v: unknown) => (v === null ? null : Number(v));
  return { fingerprint: String(row[0]), head: Number(row[1]), until: optional(row[2]), openAt: optional(row[3]) };
}

/** The changes noted since the last computation: whether the whole ledger, else the earliest instant (null: none). */
async function readMarks(c: DuckDBConnection): Promise<{ whole: boolean; since: number | null }> {
  const row = (
    await c.runAndReadAll('SELECT count(*) FILTER (WHERE since IS NULL) > 0, epoch_ms(min(since)) FROM ledger_changes')
  ).getRows()[0];
  return { whole: row?.[0] === true, since: row?.[1] === null || row?.[1] === undefined ? null : Number(row[1]) };
}

/**
 * Forgets what is kept from `from` on (every instant after it, and their states), or all of it (`from` null), and
 * the row of gains_kept: until a run writes it again (keepComputation, its last step), nothing is kept, so that a
 * run stopped half way leaves the next one to start from the first movement.
 */
export async function forgetKept(c: DuckDBConnection, from: number | null): Promise<void> {
  await c.run('DELETE FROM gains_kept');
  if (from === null) {
    await c.run('DELETE FROM gains_kept_points');
    await c.run('DELETE FROM gains_kept_states');
    return;
  }
  await c.run('DELETE FROM gains_kept_points WHERE at_ms > $from', { from: BigInt(from) });
  await c.run('DELETE FROM gains_kept_states WHERE at_ms > $from', { from: BigInt(from) });
}

/** The pools and assets with a kept state (each as the JSON key [pool, asset]). */
export async function keptKeys(c: DuckDBConnection): Promise<string[]> {
  const rows = (await c.runAndReadAll('SELECT DISTINCT pool, asset FROM gains_kept_states')).getRows();
  return rows.map((r) => JSON.stringify([String(r[0]), String(r[1])]));
}

/** The state of one pool and asset at the instant a run goes on from (its last row: later ones are forgotten). */
export async function readState(c: DuckDBConnection, pool: string, asset: string): Promise<string | undefined> {
  const row = (
    await c.runAndReadAll(
      'SELECT state FROM gains_kept_states WHERE pool = $pool AND asset = $asset ORDER BY at_ms DESC LIMIT 1',
      { pool, asset },
    )
  ).getRows()[0];
  return row === undefined ? undefined : String(row[0]);
}

/** Appends one state row (at, pool, asset, state) to gains_kept_states. */
export function appendState(appender: DuckDBAppender, at: number, pool: string, asset: string, state: string): void {
  appender.appendBigInt(BigInt(at));
  appender.appendVarchar(pool);
  appender.appendVarchar(asset);
  appender.appendVarchar(state);
  appender.endRow();
}

/**
 * The month starts (UTC) after `from` (null: from the first movement, `first`) up to `head`: the instants a
 * computation keeps besides its head, so that a change a while back goes on from the month's start before it.
 */
export function monthStarts(from: number | null, first: number | null, head: number): number[] {
  const start = from ?? first;
  if (start === null) return [];
  const starts: number[] = [];
  const d = new Date(start);
  for (
    let m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    m <= head;
    m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1)
  )
    starts.push(m);
  return starts;
}

/** Whether `at` is a month's start (UTC). */
const isMonthStart = (at: number): boolean => {
  const d = new Date(at);
  return d.getUTCDate() === 1 && at % DAY_MS === 0;
};

/**
 * How far back the month starts are kept: a change older than that (or a range that ended before it) computes the
 * gains from the first movement. 400 days reach the year before's start from any day of a year: a year-end run in
 * the new year's first months goes on from its range's end.
 */
export const KEPT_MONTHS_MS = 400 * DAY_MS;

/**
 * Records the run's instants (its month starts and its head); forgets the head it went on from (when no month's
 * start) and the month starts more than KEPT_MONTHS_MS before the new head; then every state no instant kept needs
 * any more: a pool and asset's row serves the instants from it up to its next row.
 */
export async function recordPoints(
  c: DuckDBConnection,
  points: readonly number[],
  previousHead: number | null,
  head: number,
): Promise<void> {
  await c.run(
    'INSERT INTO gains_kept_points SELECT DISTINCT at_ms FROM (SELECT unnest($points) AS at_ms) WHERE at_ms NOT IN (SELECT at_ms FROM gains_kept_points)',
    {
      points: listValue(points.map((p) => BigInt(p))),
    },
  );
  if (previousHead !== null && previousHead < head && !isMonthStart(previousHead))
    await c.run('DELETE FROM gains_kept_points WHERE at_ms = $at', { at: BigInt(previousHead) });
  await c.run('DELETE FROM gains_kept_points WHERE at_ms < $oldest', { oldest: BigInt(head - KEPT_MONTHS_MS) });
  await c.run(
    `DELETE FROM gains_kept_states AS s WHERE NOT EXISTS (
       SELECT 1 FROM gains_kept_points AS p
       WHERE p.at_ms >= s.at_ms
         AND p.at_ms < coalesce((SELECT min(t.at_ms) FROM gains_kept_states AS t WHERE t.pool = s.pool AND t.asset = s.asset AND t.at_ms > s.at_ms), $never))`,
    { never: BigInt(Number.MAX_SAFE_INTEGER) },
  );
}

/** Writes the row of gains_kept (the run's last step) and empties ledger_changes: every change noted is taken in. */
export async function keepComputation(c: DuckDBConnection, computation: KeptComputation): Promise<void> {
  await c.run('DELETE FROM gains_kept');
  await c.run('INSERT INTO gains_kept VALUES ($fingerprint, $head, $until, $openAt)', {
    fingerprint: computation.fingerprint,
    head: BigInt(computation.head),
    until: computation.until === null ? null : BigInt(computation.until),
    openAt: computation.openAt === null ? null : BigInt(computation.openAt),
  });
  await c.run('DELETE FROM ledger_changes');
}
