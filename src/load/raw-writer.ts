import type { DuckDBAppender, DuckDBConnection, DuckDBTimestampTZValue } from '@duckdb/node-api';
import { timestampTz } from '../duckdb/time-values.js';
import { withSettingsOn } from '../duckdb/session.js';
import { runModel } from '../warehouse/sql-graph.js';
import { TYPED_STREAMS, typeRecords, typesAtLoad } from '../warehouse/typed-at-load.js';
import { releaseVersions } from '../warehouse/versions.js';
import type { Window } from '../time/window.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** A record ready to load: its key, its time, and its payload exactly as received. */
export interface LoadRecord {
  key: string;
  ts: number;
  payload: string;
}

export interface DriftEntry {
  field: string;
  kind: 'unknown' | 'missing';
  sample: string;
}

export interface QuarantineEntry {
  key: string;
  payload: string;
  error: string;
}

/** One page: its records, and the window's state after it. Both commit together or not at all. */
export interface PageCommit {
  stream: string;
  partition: string;
  /** The coverage window this page belongs to; undefined for snapshots, which have none. */
  window?: Window;
  records: readonly LoadRecord[];
  /** idLessThan for the next page; null when the window is done. */
  cursor: string | null;
  done: boolean;
  /**
   * The platform refused the window as older than it reaches: recorded as unreachable, with no records
   * (docs/history.md).
   */
  unreachable?: boolean;
  /** This page began inside a run of records sharing the previous page's last millisecond. */
  tie: boolean;
  drift: readonly DriftEntry[];
  quarantine: readonly QuarantineEntry[];
}

export interface RawWriterOptions {
  account: string;
  runId: string;
  clock: () => number;
  /** Pages waiting beyond this many records wait for the next batch (default 50 000). */
  maxBatchRecords?: number;
}

export interface RawWriter {
  /** Resolves once the page and its cursor are committed. */
  commit(page: PageCommit): Promise<void>;
}

const UPSERT_RAW = `
INSERT INTO raw_records (account, stream, partition, key, ts, payload, first_fetched_at, last_fetched_at)
SELECT account, stream, partition, key, ts, payload::JSON, fetched_at, fetched_at
FROM lp_stage_raw
-- A record met twice in one batch (a window read again) is loaded once, as last seen.
QUALIFY row_number() OVER (PARTITION BY account, stream, partition, key ORDER BY seq DESC) = 1
ON CONFLICT (account, stream, partition, key) DO UPDATE SET
  ts = excluded.ts,
  payload = excluded.payload,
  last_fetched_at = excluded.last_fetched_at`;

// Pages of one batch are folded per window: the last page's cursor and status win, counts add up.
const UPSERT_COVERAGE = `
INSERT INTO coverage (account, stream, partition, window_start, window_end, status, cursor, pages, rows, tie_pages, run_id, updated_at)
SELECT account, stream, partition, window_start, window_end, arg_max(status, seq), arg_max_null(cursor, seq),
  count(*), sum(rows), sum(tie), any_value(run_id), any_value(updated_at)
FROM lp_stage_coverage
GROUP BY account, stream, partition, window_start, window_end
ON CONFLICT (account, stream, partition, window_start, window_end) DO UPDATE SET
  status = excluded.status,
  cursor = excluded.cursor,
  pages = coverage.pages + excluded.pages,
  rows = coverage.rows + excluded.rows,
  tie_pages = coverage.tie_pages + excluded.tie_pages,
  run_id = excluded.run_id,
  updated_at = excluded.updated_at`;

// What the next transform rebuilds the ledger rows of (docs/transform.md).
// No key: the transform reads it DISTINCT (sql/warehouse/008_pending_changes_unindexed.sql).
const NOTE_CHANGES = `INSERT INTO pending_changes SELECT DISTINCT account, stream, partition, key FROM lp_stage_raw`;

const INSERT_DRIFT = `
INSERT INTO schema_drift (account, stream, field, kind, sample, first_seen_at, run_id)
VALUES ($account, $stream, $field, $kind, $sample, $now, $run)
ON CONFLICT DO NOTHING`;

const UPSERT_QUARANTINE = `
INSERT INTO quarantine (account, stream, partition, key, payload, error, fetched_at, run_id)
VALUES ($account, $stream, $partition, $key, $payload, $error, $now, $run)
ON CONFLICT (account, stream, partition, key) DO UPDATE SET payload = excluded.payload, error = excluded.error,
  fetched_at = excluded.fetched_at, run_id = excluded.run_id`;

/** One writer's account, run and clock, whether it types at load, and the failure that stopped it. */
interface WriterState {
  options: RawWriterOptions;
  typed: boolean;
  /**
   * The drift this writer has committed, as driftKey: schema_drift keeps the first sighting of each, so a later
   * page's is not sent again (every page of a stream with an unknown field has it).
   */
  driftNoted: Set<string>;
  failure?: unknown;
}

function driftKey(stream: string, drift: DriftEntry): string {
  return `${stream}\u0000${drift.kind}\u0000${drift.field}`;
}

/** Rows appended between two turns of the event loop (docs/many-accounts.md). */
const YIELD_EVERY_ROWS = 2048n;

interface Pending {
  page: PageCommit;
  writer: WriterState;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The pages waiting for one warehouse, of every writer (account) on it. */
interface CommitGroup {
  queue: Pending[];
  writing: boolean;
  /** Payload bytes committed since the last CHECKPOINT (checkpointWhenDue). */
  sinceCheckpoint: number;
  /** A CHECKPOINT failed: DuckDB gave up on the database, and every writer stops with this error. */
  failure?: unknown;
}

/**
 * Committed payload after which the writers CHECKPOINT, between two batches: DuckDB's own threshold is 16 MB of
 * write-ahead log, which holds the payloads and more (typed rows, coverage), so this checkpoints a little less
 * often than DuckDB would. DuckDB's automatic checkpoint, run inside the COMMIT of a large batch, stopped about
 * one many-account extraction in ten with "Corrupted in-memory column" (docs/many-accounts.md);
 * withCheckpointsBetweenBatches turns it off while the writers checkpoint themselves.
 */
const CHECKPOINT_EVERY_BYTES = 16 * 1024 * 1024;

const groups = new WeakMap<object, CommitGroup>();

/**
 * Writes one batch in the caller's transaction: its pages' records and windows are staged, loaded into
 * `raw_records` (typed at load where the stream is) and `coverage`, then their drift and quarantine noted.
 */
async function writeBatch(connection: DuckDBConnection, batch: readonly Pending[]): Promise<void> {
  const { records, windows } = await stageBatch(connection, batch);
  if (records > 0n) await loadStagedRecords(connection, batch);
  if (windows > 0n) await connection.run(UPSERT_COVERAGE);
  await connection.run('DELETE FROM lp_stage_raw');
  await connection.run('DELETE FROM lp_stage_coverage');
  await noteDriftAndQuarantine(connection, batch);
}

/**
 * Appends the batch's records to lp_stage_raw and its pages' windows to lp_stage_coverage; returns how many of
 * each.
 */
async function stageBatch(
  connection: DuckDBConnection,
  batch: readonly Pending[],
): Promise<{ records: bigint; windows: bigint }> {
  let records = 0n;
  let windows = 0n;
  const raw = await connection.createAppender('lp_stage_raw');
  const coverage = await connection.createAppender('lp_stage_coverage');
  try {
    for (const { page, writer } of batch) {
      const { account, runId: run } = writer.options;
      const now = timestampTz(writer.options.clock());
      for (const r of page.records) {
        raw.appendVarchar(account);
        raw.appendVarchar(page.stream);
        raw.appendVarchar(page.partition);
        raw.appendVarchar(r.key);
        raw.appendTimestampTZ(timestampTz(r.ts));
        raw.appendVarchar(r.payload);
        raw.appendTimestampTZ(now);
        raw.appendBigInt(records++);
        raw.endRow();
        // Appending is synchronous: a large batch would hold the event loop for hundreds of milliseconds, and
        // requests the limiters released would leave that much late, closer to the next than the limits allow.
        if (records % YIELD_EVERY_ROWS === 0n) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (page.window !== undefined) appendWindow(coverage, { account, run, now, seq: windows++ }, page, page.window);
    }
    raw.flushSync();
    coverage.flushSync();
  } finally {
    raw.closeSync();
    coverage.closeSync();
  }
  return { records, windows };
}

/** One page's row of lp_stage_coverage: its window's state after the page. */
function appendWindow(
  coverage: DuckDBAppender,
  row: { account: string; run: string; now: DuckDBTimestampTZValue; seq: bigint },
  page: PageCommit,
  window: Window,
): void {
  coverage.appendVarchar(row.account);
  coverage.appendVarchar(page.stream);
  coverage.appendVarchar(page.partition);
  coverage.appendTimestampTZ(timestampTz(window.start));
  coverage.appendTimestampTZ(timestampTz(window.end));
  coverage.appendVarchar(page.unreachable === true ? 'unreachable' : page.done ? 'done' : 'open');
  if (page.cursor === null) coverage.appendNull();
  else coverage.appendVarchar(page.cursor);
  coverage.appendBigInt(BigInt(page.records.length));
  coverage.appendInteger(page.tie ? 1 : 0);
  coverage.appendVarchar(row.run);
  coverage.appendTimestampTZ(row.now);
  coverage.appendBigInt(row.seq);
  coverage.endRow();
}

/** Loads the staged records into raw_records, notes them in pending_changes, and types those typed at load. */
async function loadStagedRecords(connection: DuckDBConnection, batch: readonly Pending[]): Promise<void> {
  const count = async (sql: string): Promise<bigint> =>
    BigInt((await connection.runAndReadAll(sql)).getRows()[0]?.[0] as bigint);
  const held = await count('SELECT count(*) FROM raw_records');
  // UPSERT_RAW inserts or updates each record of the batch once, and counts them.
  const loaded = await count(UPSERT_RAW);
  // Fewer rows added than records loaded: some were loaded before, and their typed rows are replaced.
  const replacing = (await count('SELECT count(*) FROM raw_records')) - held < loaded;
  await connection.run(NOTE_CHANGES);
  // The typed columns of the streams typed at load, from the same records, in the same transaction.
  for (const stream of TYPED_STREAMS) {
    if (batch.some((p) => p.writer.typed && p.page.stream === stream && p.page.records.length > 0))
      await typeRecords(connection, stream, 'lp_stage_raw_last', replacing);
  }
}

/** The fields the pages found unknown or missing (schema_drift), and the records they set aside (quarantine). */
async function noteDriftAndQuarantine(connection: DuckDBConnection, batch: readonly Pending[]): Promise<void> {
  const sent = new Set<string>();
  for (const { page, writer } of batch) {
    const base = {
      account: writer.options.account,
      stream: page.stream,
      now: timestampTz(writer.options.clock()),
      run: writer.options.runId,
    };
    for (const d of page.drift) {
      const key = driftKey(page.stream, d);
      // A batch may hold several accounts' pages: what it sends is told apart by account.
      const sentKey = `${writer.options.account}\u0000${key}`;
      if (writer.driftNoted.has(key) || sent.has(sentKey)) continue;
      sent.add(sentKey);
      await connection.run(INSERT_DRIFT, { ...base, field: d.field, kind: d.kind, sample: d.sample });
    }
    for (const q of page.quarantine) {
      await connection.run(UPSERT_QUARANTINE, {
        ...base,
        partition: page.partition,
        key: q.key,
        payload: q.payload,
        error: q.error,
      });
    }
  }
}

/** The next batch: pages in arrival order up to `maxBatchRecords` records (one page at least). */
function takeBatch(group: CommitGroup): Pending[] {
  let records = 0;
  let take = 0;
  while (take < group.queue.length) {
    const pending = group.queue[take] as Pending;
    const limit = pending.writer.options.maxBatchRecords ?? 50_000;
    if (take > 0 && records + pending.page.records.length > limit) break;
    records += pending.page.records.length;
    take++;
  }
  return group.queue.splice(0, take);
}

/** Commits `pages` in one transaction and resolves them; on failure resolves none and says why. */
async function commitPages(
  warehouse: Pick<Warehouse, 'transaction'>,
  pages: Pending[],
): Promise<{ error: unknown } | undefined> {
  try {
    await warehouse.transaction((c) => writeBatch(c, pages));
  } catch (error) {
    return { error };
  }
  for (const p of pages) {
    for (const d of p.page.drift) p.writer.driftNoted.add(driftKey(p.page.stream, d));
    p.resolve();
  }
  return undefined;
}

/** CHECKPOINT once CHECKPOINT_EVERY_BYTES of payload have committed since the last; false if it failed. */
async function checkpointWhenDue(
  warehouse: Pick<Warehouse, 'exclusive'>,
  group: CommitGroup,
  batch: readonly Pending[],
): Promise<boolean> {
  for (const { page } of batch) for (const r of page.records) group.sinceCheckpoint += r.payload.length;
  if (group.sinceCheckpoint < CHECKPOINT_EVERY_BYTES) return true;
  group.sinceCheckpoint = 0;
  try {
    await warehouse.exclusive((c) => c.run('CHECKPOINT'));
    return true;
  } catch (error) {
    // The pages are committed (the log holds them); the pages waiting, and any to come, are not.
    group.failure = error;
    for (const writer of new Set(group.queue.map((p) => p.writer))) fail(group, [], writer, error);
    return false;
  }
}

async function drain(warehouse: Pick<Warehouse, 'transaction' | 'exclusive'>, group: CommitGroup): Promise<void> {
  group.writing = true;
  while (group.queue.length > 0) {
    const batch = takeBatch(group);
    const failed = await commitPages(warehouse, batch);
    if (failed === undefined) {
      if (!(await checkpointWhenDue(warehouse, group, batch))) break;
      continue;
    }
    const writers = [...new Set(batch.map((p) => p.writer))];
    // Several accounts' pages: each writer's go again alone, so one account's bad page stops only that account.
    for (const writer of writers) {
      const pages = batch.filter((p) => p.writer === writer);
      const own = writers.length === 1 ? failed : await commitPages(warehouse, pages);
      if (own !== undefined) fail(group, pages, writer, own.error);
    }
  }
  group.writing = false;
}

/** After one failed batch a writer writes nothing more: a later page's cursor would move past the lost one. */
function fail(group: CommitGroup, pages: Pending[], writer: WriterState, error: unknown): void {
  writer.failure = error;
  const stopped = group.queue.filter((p) => p.writer === writer);
  group.queue = group.queue.filter((p) => p.writer !== writer);
  for (const p of [...pages, ...stopped]) p.reject(error);
}

/**
 * Loads pages into `raw_records` and their cursors into `coverage`. The writers of every account on one
 * warehouse share one queue: pages that arrive while a batch is being written wait and go together in the next
 * transaction, whichever account they are of. Every page's records commit with its own cursor, and many
 * accounts at once pay for one transaction per batch, not per page (docs/many-accounts.md).
 *
 * @example
 * const writer = await createRawWriter(warehouse, { account: 'default', runId, clock: Date.now });
 * await writer.commit({ stream: 'withdrawals', partition: '', window, records, cursor: null, done: true, tie: false, drift: [], quarantine: [] });
 */
export async function createRawWriter(
  warehouse: Pick<Warehouse, 'transaction' | 'exclusive'>,
  options: RawWriterOptions,
): Promise<RawWriter> {
  await warehouse.exclusive((c) => runModel(c, 'load/staging.sql'));
  let group = groups.get(warehouse);
  if (group === undefined) {
    group = { queue: [], writing: false, sinceCheckpoint: 0 };
    groups.set(warehouse, group);
  }
  const shared = group;
  const { typing } = await releaseVersions();
  const typed = await warehouse.exclusive((c) => typesAtLoad(c, typing, options.clock()));
  const writer: WriterState = { options, typed, driftNoted: new Set() };
  return {
    commit: (page) =>
      new Promise<void>((resolve, reject) => {
        if (writer.failure !== undefined) return reject(writer.failure);
        if (shared.failure !== undefined) return reject(shared.failure);
        shared.queue.push({ page, writer, resolve, reject });
        if (!shared.writing) void drain(warehouse, shared);
      }),
  };
}

/**
 * Runs `work` (the extraction) with DuckDB's automatic checkpoints off: the writers checkpoint between batches
 * instead (CHECKPOINT_EVERY_BYTES). Restores DuckDB's threshold after, so the transform's commits checkpoint as
 * usual. The setting is the whole instance's: calls must not overlap.
 */
export function withCheckpointsBetweenBatches<T>(
  warehouse: Pick<Warehouse, 'exclusive'>,
  work: () => Promise<T>,
): Promise<T> {
  return withSettingsOn((run) => warehouse.exclusive(run), { checkpoint_threshold: '1TB' }, work);
}
