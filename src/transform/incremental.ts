import type { DuckDBConnection } from '@duckdb/node-api';
import { ident, literal } from '../warehouse/quote.js';
import { readSqlFile, sqlFileNamed, type SqlFile } from '../warehouse/sql-files.js';
import { LEDGER_SOURCES as BOOKED } from '../models/index.js';

/**
 * The models the ledger books, each with the column its ledger rows' source_id is (the record's key). Each is
 * a view on the table its records are typed into at load.
 */
export const LEDGER_SOURCES = BOOKED.map((m) => ({ model: m.name, key: m.keyColumn }));

/** The sources whose records pair with others of the same millisecond (all but fills). */
const PAIRED_SOURCES = BOOKED.filter((m) => m.ledger === 'paired').map((m) => ({ model: m.name, key: m.keyColumn }));

/** The streams of the records loaded since the last transform. */
export async function pendingStreams(c: DuckDBConnection): Promise<Set<string>> {
  return new Set((await c.runAndReadAll('SELECT DISTINCT stream FROM pending_changes')).getRows().map((r) => String(r[0])));
}

/**
 * The most ledger rows an incremental transform moves to keep a ledger in the exports' order (README, "How the
 * transform works"): the rows that sort after the earliest new one, some twelve days of a year of 1M fills.
 * Moving 54k of the 1.56M rows of 983k fills' year took 0.16 s, and `ledgerpipe transform` peaked at 282 MB
 * (98k: 0.33 s, 346 MB); the exports of that year then read the ledger as it lies, its CSV and Parquet in
 * 5.4-5.9 s against 9.6-12.2 s sorted (docs/performance.md, "Memory").
 */
export const MOVED_ROWS_MAX = 50_000;

/** The file that makes the ledger table (the only model the transform keeps as a table of its own). */
export const LEDGER_FILE = 'ledger/10_ledger.sql';

/** The files the ledger's rows are made by, run again over the changed records' models. */
const DELTA_FILES = [LEDGER_FILE];

/**
 * The schema the changed records' models and ledger rows are made in, inside the transform's transaction. It
 * stays in the warehouse with its tables emptied: DuckDB cannot commit a transaction that made a table, wrote
 * to it and dropped it.
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
 * Brings the ledger up to date with the records loaded since the last transform (`pending_changes`), instead of
 * making it again whole (README, "How the transform works"). A ledger row depends on its record, the type
 * catalog, and, for its trade_group, the other records of its source at the same millisecond of the same
 * account: so the records rebooked are the changed ones and those sharing a millisecond with one, before or
 * after the change (a fill pairs with nothing: its own rows only). Their models' rows are copied into the
 * schema lp_delta under the models' own names, and the very files of a full transform (DELTA_FILES), then the
 * checks, run there with lp_delta first on DuckDB's search path: the rows they make are the rows a full rebuild
 * makes for those records, and the checks see exactly the rows that change. Then those records' ledger rows
 * are deleted and the new ones inserted. Everything runs in the transform's transaction: a failed check or a
 * killed process leaves the ledger and pending_changes as they were.
 *
 * `runChecks` runs the checks (on `c`) and returns their problems. `order` says whether the ledger lies in the
 * exports' order, and how many of its rows may be moved to keep it so. Returns the problems, what changed, and
 * whether the ledger is in the exports' order.
 */
export async function updateLedger(
  c: DuckDBConnection,
  files: readonly SqlFile[],
  runChecks: () => Promise<string[]>,
  timed: (name: string, work: () => Promise<void>) => Promise<void>,
  order: { inOrder: boolean; movedRowsMax: number },
): Promise<{ problems: string[]; update: LedgerUpdate; inOrder: boolean }> {
  const sources = LEDGER_SOURCES.map((s) => literal(s.model)).join(', ');
  const count = async (sql: string): Promise<number> => Number((await c.runAndReadAll(sql)).getRows()[0]?.[0] ?? 0);
  const changed = await count(`SELECT count(*) FROM (SELECT DISTINCT account, stream, key FROM pending_changes WHERE stream IN (${sources}))`);
  const update: LedgerUpdate = { changed, rebooked: 0, deleted: 0, inserted: 0 };
  if (changed === 0) return { problems: [], update, inOrder: order.inOrder };
  await c.run(`CREATE SCHEMA IF NOT EXISTS ${DELTA}`);
  await timed('the changed records', async () => {
    await c.run(`CREATE OR REPLACE TABLE ${DELTA}.changed AS
      SELECT DISTINCT account, stream AS source, key AS source_id FROM pending_changes WHERE stream IN (${sources})`);
    // The milliseconds the changed records pair at, as their ledger rows had them and as their models have them now.
    const now = PAIRED_SOURCES.map(
      (s) => `SELECT m.account, ${literal(s.model)} AS source, m.ts FROM main.${s.model} AS m
        SEMI JOIN ${DELTA}.changed AS c ON c.account = m.account AND c.source = ${literal(s.model)} AND c.source_id = m.${s.key}`,
    );
    await c.run(`CREATE OR REPLACE TABLE ${DELTA}.moments AS
      SELECT DISTINCT account, source, ts FROM (
        SELECT l.account, l.source, l.ts FROM main.ledger AS l
        SEMI JOIN ${DELTA}.changed AS c ON c.account = l.account AND c.source = l.source AND c.source_id = l.source_id
        WHERE l.source <> 'futures_fills'
        UNION ALL ${now.join(' UNION ALL ')}
      )`);
    const neighbours = PAIRED_SOURCES.map(
      (s) => `SELECT m.account, ${literal(s.model)}, m.${s.key} FROM main.${s.model} AS m
        SEMI JOIN ${DELTA}.moments AS t ON t.account = m.account AND t.source = ${literal(s.model)} AND t.ts = m.ts`,
    );
    await c.run(`CREATE OR REPLACE TABLE ${DELTA}.rebooked AS
      SELECT account, source, source_id FROM ${DELTA}.changed UNION ${neighbours.join(' UNION ')}`);
    await c.run((await readSqlFile('generated/delta_models.sql')).text);
    update.rebooked = await count(`SELECT count(*) FROM ${DELTA}.rebooked`);
  });
  let problems: string[];
  await c.run(`SET search_path = '${DELTA},main'`);
  try {
    for (const name of DELTA_FILES) {
      const file = sqlFileNamed(files, name);
      await timed(`${name} (changed records)`, () => c.run(file.text).then(() => undefined));
    }
    problems = await runChecks();
  } finally {
    await c.run('RESET search_path');
  }
  if (problems.length > 0) return { problems, update, inOrder: false };
  let inOrder = false;
  await timed('ledger rows replaced', async () => {
    update.deleted = await count(`DELETE FROM main.ledger AS l USING ${DELTA}.rebooked AS r
      WHERE l.account = r.account AND l.source = r.source AND l.source_id = r.source_id`);
    // New rows go in in the exports' order (ORDER BY: a parallel insert would append them in any order).
    const newRows = `SELECT * FROM ${DELTA}.ledger`;
    let moved = 0;
    if (order.inOrder) {
      // The rows kept that sort after the earliest new one, read from that one's time on: none when every new
      // row is newer than all before (a night of new records). A few (a withdrawal of last week that moved to
      // success) are deleted and go in again with the new rows, in order; more, and the order is given up.
      const later = `FROM main.ledger WHERE ts >= (SELECT min(ts) FROM ${DELTA}.ledger)
        AND (ts, entry_id, account) > (SELECT min((ts, entry_id, account)) FROM ${DELTA}.ledger)`;
      const kept = await count(`SELECT count(*) ${later}`);
      inOrder = kept <= order.movedRowsMax;
      if (kept > 0 && inOrder) {
        await c.run(`CREATE OR REPLACE TABLE ${DELTA}.moved AS SELECT * ${later}`);
        moved = await count(`DELETE ${later}`);
      }
    }
    const rows = moved > 0 ? `${newRows} UNION ALL SELECT * FROM ${DELTA}.moved` : newRows;
    update.inserted = (await count(`INSERT INTO main.ledger BY NAME SELECT * FROM (${rows}) ORDER BY ts, entry_id, account`)) - moved;
  });
  // Emptied, not dropped (DELTA).
  const tables = (await c.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE schema_name = ${literal(DELTA)}`)).getRows();
  for (const [table] of tables) await c.run(`DELETE FROM ${DELTA}.${ident(String(table))}`);
  return { problems, update, inOrder };
}
