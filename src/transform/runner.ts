import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckError } from '../errors/check-error.js';
import { UsageError } from '../errors/usage-error.js';
import { packageRoot } from '../util/package-root.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ident, literal } from '../warehouse/quote.js';
import { makeValueViews } from '../warehouse/values.js';
import { RAW_MADE_MODELS, readSqlFolder, transformFiles } from '../warehouse/sql-files.js';
import { forgetModelVersion, readModelVersion, recordModelVersion } from '../warehouse/model-versions.js';
import { LEDGER_FILE, MOVED_ROWS_MAX, pendingStreams, updateLedger, type LedgerUpdate } from './incremental.js';
import { TYPED_STREAMS } from '../warehouse/typed-at-load.js';
import { ensureTyped, typedVersion } from '../warehouse/typed-at-load.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface TransformReport {
  /** Each SQL file run, with how long it took. */
  files: { name: string; ms: number }[];
  /** Each check run, with how long it took; all passed, or the transform would have thrown. */
  checks: { name: string; ms: number }[];
  /** The version of the type catalog the ledger was booked with (catalogVersion). */
  catalogVersion: string;
  /** Whether the ledger was made whole, and why; or brought up to date with the records loaded since the last transform. */
  mode: { full: true; why: string } | { full: false; update: LedgerUpdate };
}

export interface TransformOptions {
  /** Type every record again from raw_records, and make the whole ledger (`transform --full`). */
  full?: boolean;
  /** The most ledger rows an incremental transform moves to keep the ledger in the exports' order (MOVED_ROWS_MAX). */
  movedRowsMax?: number;
  clock?: () => number;
  now?: () => number;
}

/**
 * The version of the type catalog: the SHA-256 of the seed files (`sql/seeds/*.csv`) one after another in name
 * order, so that `cat sql/seeds/*.csv | sha256sum` prints it too. Recorded in `model_versions` by every transform.
 *
 * @example
 * await catalogVersion() // => 'c0ffee...' (64 hex digits)
 */
export async function catalogVersion(): Promise<string> {
  const dir = join(packageRoot(), 'sql', 'seeds');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.csv')).sort();
  const hash = createHash('sha256');
  for (const name of names) hash.update(await readFile(join(dir, name)));
  return hash.digest('hex');
}

/**
 * The version of the models: the SHA-256 of every file the transform runs or reads (sql/macros, the catalog of
 * sql/seeds, sql/staging, sql/ledger, sql/checks), recorded in `model_versions` as 'models'. A ledger made under
 * another version is made again whole, and the exports refuse a warehouse whose models are of another.
 */
export function modelsVersion(): Promise<string> {
  // Read once a process: every transform and export of it asks.
  modelsHash ??= (async () => {
    const hash = createHash('sha256').update(await typedVersion()).update(await catalogVersion());
    for (const file of [...(await transformFiles()), ...(await readSqlFolder('values')), ...(await readSqlFolder('checks'))]) hash.update(file.name).update(file.text);
    return hash.digest('hex');
  })();
  return modelsHash;
}

let modelsHash: Promise<string> | undefined;

/** The name of the models' version in model_versions. */
const MODELS_VERSION = 'models';

/**
 * The name in model_versions of the models' version the ledger was last made whole with, while it lies in the
 * exports' order (sql/ledger/10_ledger.sql): forgotten by an incremental transform that would have to move more
 * than MOVED_ROWS_MAX of its rows to keep it (updateLedger).
 */
const LEDGER_ORDER = 'ledger_order';

/**
 * Whether the ledger's rows lie in the exports' order (ts, entry_id, account), so that an export may read them
 * as they lie instead of sorting them: sorting the ledger of 983k fills took its CSV and Parquet 9.6-12.2 s
 * against 5.4-5.9 s (docs/performance.md, "Memory").
 */
export function ledgerInExportOrder(warehouse: Pick<Warehouse, 'exclusive'>): Promise<boolean> {
  return warehouse.exclusive(ledgerLiesInOrder);
}

/** ledgerInExportOrder on a connection: the transform's own, inside its transaction. */
async function ledgerLiesInOrder(c: DuckDBConnection): Promise<boolean> {
  return (await readModelVersion(c, LEDGER_ORDER)) === (await modelsVersion());
}

/**
 * Refuses files made from models that are not this release's last transform of every loaded record: records are
 * typed into their models as they load, but the ledger takes them in at the next transform, and a set of files
 * whose futures_fills and ledger disagree must never be written.
 */
export async function assertTransformed(warehouse: Pick<Warehouse, 'exclusive' | 'path'>): Promise<void> {
  const [recorded, pending] = await warehouse.exclusive(async (c) => [
    await readModelVersion(c, MODELS_VERSION),
    Number((await c.runAndReadAll('SELECT count(*) FROM (SELECT DISTINCT * FROM pending_changes)')).getRows()[0]?.[0]),
  ]);
  if (recorded !== (await modelsVersion())) throw new UsageError(`${warehouse.path} has not been transformed by this release of ledgerpipe; run ledgerpipe transform, then export`);
  if (pending > 0) throw new UsageError(`${warehouse.path} has ${pending} records loaded since its last transform; run ledgerpipe transform, then export`);
}

/**
 * Makes the models from `raw_records` (README, "How the transform works"), in one transaction with the checks of
 * `sql/checks/`: rolled back whole (keeping the previous tables) when a file fails or a check finds a problem.
 * Typing again from raw_records (ensureTyped) comes first, in a transaction of its own.
 *
 * Incremental by default: the records typed at load are already in their typed tables, of which the models are
 * views, and only the ledger rows of the records loaded since the last transform are made again (updateLedger),
 * checked over those rows. The whole ledger is made again, and checked whole, with `full`, for a warehouse of
 * another release, or when the SQL, the type catalog or the typing has changed (each recorded in
 * `model_versions`); a typing of another release is first made again from raw_records. The seeds are
 * read relative to ledgerpipe's folder (DuckDB's file_search_path, set for the transform only).
 *
 * @example
 * const report = await runTransforms(warehouse);
 * for (const f of report.files) log.info(`${f.name} ${f.ms} ms`);
 */
export async function runTransforms(warehouse: Pick<Warehouse, 'transaction' | 'exclusive'>, options: TransformOptions = {}): Promise<TransformReport> {
  const clock = options.clock ?? (() => performance.now());
  const now = options.now ?? Date.now;
  const files = await transformFiles();
  const checks = await readSqlFolder('checks');
  const catalog = await catalogVersion();
  const typed = await typedVersion();
  const models = await modelsVersion();
  // The tables keep no order but the ledger's, which the ORDER BY of the statements writing it makes: DuckDB
  // writes them faster and in less memory when it need not keep the order rows were made in (retyping 983k
  // fills: 4.0 s against 7.0 s; docs/performance.md, "Memory").
  // Set and reset outside the transaction, which a failed statement leaves refusing all but its rollback.
  await warehouse.exclusive((c) => c.run('SET preserve_insertion_order = false'));
  try {
    // Typed again first, in a transaction of its own: rows typed from raw_records by the typing recorded with
    // them are right whatever becomes of the ledger, and the ledger made in a transaction that also retyped
    // 983k fills took 4.6 s against 3.0 s (docs/performance.md, "Memory"). A transform killed between the two
    // leaves the ledger of the models recorded before, which the next transform makes again.
    const started = clock();
    const retyped = await warehouse.transaction((c) => ensureTyped(c, typed, now(), options.full === true));
    const typing = { name: 'typed tables', ms: Math.round(clock() - started) };
    return await warehouse.transaction((c) => transformIn(c, retyped, typing));
  } finally {
    // Best effort: a database DuckDB gave up on refuses it too, and that must not hide why.
    await warehouse.exclusive((c) => c.run('RESET preserve_insertion_order')).catch(() => undefined);
  }

  async function transformIn(connection: DuckDBConnection, retyped: readonly string[], typing: { name: string; ms: number }): Promise<TransformReport> {
    const report: TransformReport = { files: [typing], checks: [], catalogVersion: catalog, mode: { full: true, why: '' } };
    const timed = async (name: string, work: () => Promise<void>, into = report.files): Promise<void> => {
      const started = clock();
      await work();
      into.push({ name, ms: Math.round(clock() - started) });
    };
    if (retyped.length > 0 && options.full !== true) report.files.push({ name: `typed again: ${retyped.join(', ')}`, ms: 0 });
    const recorded = await readModelVersion(connection, MODELS_VERSION);
    const why = options.full
      ? 'asked for (--full)'
      : retyped.length > 0
        ? `typed again: ${retyped.join(', ')}`
        : recorded === undefined
          ? 'the first transform of this warehouse by this release'
          : recorded !== models
            ? 'the SQL, the type catalog or the typing changed'
            : undefined;
    const problems: string[] = [];
    let inOrder = true;
    /** Runs every check, each timed, and returns the problems they find, one line each. */
    const runChecks = async (): Promise<string[]> => {
      const found: string[] = [];
      for (const check of checks) {
        await timed(
          check.name,
          async () => {
            for (const row of (await connection.runAndReadAll(check.text)).getRowObjectsJS()) found.push(`${String(row['check_name'])}: ${String(row['problem'])}`);
          },
          report.checks,
        );
      }
      return found;
    };
    await connection.run(`SET file_search_path = ${literal(packageRoot())}`);
    try {
      if (why !== undefined) await dropEarlierModelTables(connection);
      const pending = await pendingStreams(connection);
      for (const file of files) {
        const stream = RAW_MADE_MODELS.find((m) => m.file === file.name)?.stream;
        if (stream !== undefined && why === undefined && !pending.has(stream)) continue;
        if (file.name === LEDGER_FILE && why === undefined) {
          const order = { inOrder: await ledgerLiesInOrder(connection), movedRowsMax: options.movedRowsMax ?? MOVED_ROWS_MAX };
          const result = await updateLedger(connection, files, runChecks, (name, work) => timed(name, work), order);
          report.mode = { full: false, update: result.update };
          problems.push(...result.problems);
          inOrder = result.inOrder;
          continue;
        }
        await timed(file.name, () => connection.run(file.text).then(() => undefined));
      }
    } finally {
      await connection.run('RESET file_search_path');
    }
    // The views of values, with the fiat and time zone they were last made with (README, "Values").
    await makeValueViews(connection);
    if (why !== undefined) {
      report.mode = { full: true, why };
      problems.push(...(await runChecks()));
    }
    if (problems.length > 0) throw new CheckError(problems);
    await connection.run('DELETE FROM pending_changes');
    await recordModelVersion(connection, 'type_catalog', catalog, now());
    await recordModelVersion(connection, MODELS_VERSION, models, now());
    if (why !== undefined) await recordModelVersion(connection, LEDGER_ORDER, models, now());
    else if (!inOrder) await forgetModelVersion(connection, LEDGER_ORDER);
    return report;
  }
}

/**
 * Drops the tables earlier releases made of the models that are now views on their typed tables (the typed
 * streams' models), so that the staging files can make the views: in the transform's transaction, so that a
 * warehouse keeps its tables until the views replace them.
 */
async function dropEarlierModelTables(c: DuckDBConnection): Promise<void> {
  const models = TYPED_STREAMS.map(literal).join(', ');
  const tables = (await c.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND table_name IN (${models})`)).getRows();
  for (const [name] of tables) await c.run(`DROP TABLE ${ident(String(name))}`);
}
