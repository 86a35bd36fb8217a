import type { DuckDBConnection } from '@duckdb/node-api';
import { ident } from '../duckdb/quote.js';
import { withSettings } from '../duckdb/session.js';
import { runModel, withParams, type SqlFile } from '../warehouse/sql-graph.js';
import { runChecks } from './checks.js';
import type { Steps } from './steps.js';

/**
 * The most ledger rows an incremental transform moves to keep a ledger in the exports' order (docs/transform.md): the
 * rows that sort after the earliest new one, some twelve days of a year of 1M fills. Moving 54k of the 1.56M rows of
 * 983k fills' year took 0.16 s, and `ledgerpipe transform` peaked at 282 MB (98k: 0.33 s, 346 MB); the exports of that
 * year then read the ledger as it lies, its CSV and Parquet in
 * 5.4-5.9 s against 9.6-12.2 s sorted (docs/performance.md, "Memory").
 */
export const MOVED_ROWS_MAX = 50_000;

/** The file that makes the ledger table (the only model the transform keeps as a table of its own). */
export const LEDGER_FILE = 'ledger/10_ledger.sql';

/**
 * The schema the changed records' typed rows and ledger rows are made in, inside the transform's transaction
 * (sql/incremental/10_rebooked.sql). It stays in the warehouse with its tables emptied: DuckDB cannot commit a
 * transaction that made a table, wrote to it and dropped it.
 */
const DELTA = 'lp_delta';

export interface LedgerUpdate {
  /** Records loaded or changed since the last transform (pending_changes). */
  changed: number;
  /** Records whose ledger rows were made again: the changed ones and those sharing a trade's millisecond with one. */
  rebooked: number;
  /** Ledger rows deleted and inserted. */
  deleted: number;
  inserted: number;
}

/**
 * What an incremental transform did: the checks' problems (none, or nothing was replaced), and whether the ledger lies
 * in order.
 */
export interface UpdateResult {
  problems: string[];
  update: LedgerUpdate;
  inOrder: boolean;
}

export interface UpdateOptions {
  checks: readonly SqlFile[];
  steps: Steps;
  /** Whether the ledger lies in the exports' order, and how many of its rows may be moved to keep it so. */
  inOrder: boolean;
  movedRowsMax: number;
}

/**
 * Brings the ledger up to date with the records loaded since the last transform (`pending_changes`), instead of
 * making it again whole (docs/transform.md), by the files of sql/incremental/: the records to book
 * again (10_rebooked.sql), their typed rows copied into the schema lp_delta (sql/generated/delta_models.sql), the
 * very ledger file of a full transform and then the checks run there with lp_delta first on DuckDB's search path
 * (the legs read those copies), then where they change noted for the gains (15_changed_rows.sql), their old rows
 * out (20_rows_out.sql) and the new ones in (30_rows_in.sql).
 * Everything runs in the transform's transaction: a failed check or a killed process leaves the ledger and
 * pending_changes as they were. Returns the checks' problems, what changed, and whether the ledger is in the
 * exports' order.
 */
export async function updateLedger(c: DuckDBConnection, options: UpdateOptions): Promise<UpdateResult> {
  const changed = Number(
    (
      await c.runAndReadAll(
        'SELECT count(*) FROM (SELECT DISTINCT account, stream, key FROM pending_changes WHERE stream IN (SELECT source FROM lp_booked_streams()))',
      )
    ).getRows()[0]?.[0] ?? 0,
  );
  const update: LedgerUpdate = { changed, rebooked: 0, deleted: 0, inserted: 0 };
  if (changed === 0) return { problems: [], update, inOrder: options.inOrder };
  const { steps } = options;
  await steps.time('the changed records', async () => {
    update.rebooked = (await runModel(c, 'incremental/10_rebooked.sql'))['rebooked'] ?? 0;
    await runModel(c, 'generated/delta_models.sql');
  });
  const problems = await withSettings(c, { search_path: `${DELTA},main` }, async () => {
    await steps.time(`${LEDGER_FILE} (changed records)`, () => runModel(c, LEDGER_FILE));
    return runChecks(c, options.checks, steps);
  });
  if (problems.length > 0) return { problems, update, inOrder: false };
  const inOrder = await steps.time('ledger rows replaced', () => replaceRows(c, update, options));
  await emptyDelta(c);
  return { problems, update, inOrder };
}

/** The rebooked records' rows out and their new rows in, keeping the exports' order when few rows must move. */
async function replaceRows(c: DuckDBConnection, update: LedgerUpdate, options: UpdateOptions): Promise<boolean> {
  // Where the rows change, for the gains kept from them (src/gains/kept.ts): before the old rows go.
  await runModel(c, 'incremental/15_changed_rows.sql');
  const out = await withParams(c, { lp_in_order: options.inOrder }, () => runModel(c, 'incremental/20_rows_out.sql'));
  const keepOrder = options.inOrder && (out['later'] ?? 0) <= options.movedRowsMax;
  const into = await withParams(c, { lp_keep_order: keepOrder }, () => runModel(c, 'incremental/30_rows_in.sql'));
  update.deleted = out['deleted'] ?? 0;
  update.inserted = (into['inserted'] ?? 0) - (into['moved'] ?? 0);
  return keepOrder;
}

/** Empties the tables of lp_delta, which stay (DELTA). */
async function emptyDelta(c: DuckDBConnection): Promise<void> {
  const tables = (
    await c.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE schema_name = $schema', { schema: DELTA })
  ).getRows();
  for (const [table] of tables) await c.run(`DELETE FROM ${DELTA}.${ident(String(table))}`);
}

/** The streams of the records loaded since the last transform. */
export async function pendingStreams(c: DuckDBConnection): Promise<Set<string>> {
  return new Set(
    (await c.runAndReadAll('SELECT DISTINCT stream FROM pending_changes')).getRows().map((r) => String(r[0])),
  );
}
