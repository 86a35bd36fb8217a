import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ident, literal } from './quote.js';
import { readSqlFolder } from './sql-files.js';
import { readModelVersion, recordModelVersion } from './model-versions.js';

/**
 * The streams whose typed columns are written with their raw records (README, "How the transform works"): a
 * table `typed_<stream>` filled by the macro `lp_type_<stream>` (sql/macros/10_typed_at_load.sql), of which the
 * stream's model is a view (sql/staging). Every stream the ledger books; P2P advertisements and balance
 * snapshots, which it does not, are few and stay tables made from raw_records by each transform.
 */
export const TYPED_AT_LOAD = ['margin_records', 'futures_fills', 'withdrawals', 'deposits', 'futures_tax_records', 'spot_tax_records', 'p2p_tax_records'] as const;

export type TypedStream = (typeof TYPED_AT_LOAD)[number];

/** The column of each typed table that holds its record's partition in raw_records. */
const TYPED_PARTITION: Readonly<Record<TypedStream, string>> = {
  margin_records: 'margin_type',
  futures_fills: 'product_type',
  withdrawals: 'partition',
  deposits: 'partition',
  futures_tax_records: 'partition',
  spot_tax_records: 'partition',
  p2p_tax_records: 'partition',
};

/** The name the typing's version has in model_versions. */
const TYPED_VERSION = 'typed_at_load';

/**
 * Types `stream`'s records in `source` (a table or view with raw_records' columns) into `typed_<stream>`. The
 * typed tables have no key (sql/warehouse/009_typed_tables_unindexed.sql): with `replacing`, some of the records
 * were loaded before (a window read again, a changed status), and their earlier rows are deleted first.
 */
export async function typeRecords(c: DuckDBConnection, stream: TypedStream, source: string, replacing: boolean): Promise<void> {
  const table = ident(`typed_${stream}`);
  if (replacing) {
    const partition = ident(TYPED_PARTITION[stream]);
    await c.run(`DELETE FROM ${table} AS t USING ${ident(source)} AS s
      WHERE s.stream = ${literal(stream)} AND t.account = s.account AND t.${partition} = s.partition AND t.key = s.key`);
  }
  await c.run(`INSERT INTO ${table} BY NAME SELECT * FROM ${ident(`lp_type_${stream}`)}(${literal(source)})`);
}

/**
 * The version of the typing: the SHA-256 of the macro files, which hold how every typed column is made (a
 * change of lp_amount changes the columns as much as a change of the typing itself).
 */
export function typedVersion(): Promise<string> {
  // Read once a process: every loader and transform of it asks.
  typing ??= (async () => {
    const hash = createHash('sha256');
    for (const file of await readSqlFolder('macros')) hash.update(file.text);
    return hash.digest('hex');
  })();
  return typing;
}

let typing: Promise<string> | undefined;

/**
 * Whether a loader may type its records as it loads them: when the typed tables are of this release's typing, or
 * when there is nothing typed or to type yet (a new warehouse: this release's version is recorded now). Otherwise
 * (a warehouse typed by another release) the records are loaded raw, and the next transform types every one
 * again: rows of two typings must never sit in one table under one version.
 */
export async function typesAtLoad(c: DuckDBConnection, version: string, now: number): Promise<boolean> {
  const recorded = await readModelVersion(c, TYPED_VERSION);
  if (recorded === version) return true;
  if (recorded !== undefined) return false;
  const held = TYPED_AT_LOAD.map((s) => `(SELECT count(*) FROM raw_records WHERE stream = ${literal(s)}) + (SELECT count(*) FROM ${ident(`typed_${s}`)})`).join(' + ');
  if (Number((await c.runAndReadAll(`SELECT ${held}`)).getRows()[0]?.[0]) > 0) return false;
  await recordModelVersion(c, TYPED_VERSION, version, now);
  return true;
}

/**
 * Makes the typed tables whole before the transform reads them, in a transaction of their own: when they were
 * typed by another release (model_versions 'typed_at_load'), or hold another number of rows than raw_records (a
 * warehouse of an earlier release, records moved back from quarantine), they are typed again from raw_records,
 * which stays enough to replay every transform; with `all` (transform --full), every stream is. Returns the
 * streams typed again.
 */
export async function ensureTyped(c: DuckDBConnection, version: string, now: number, all = false): Promise<TypedStream[]> {
  const recorded = await readModelVersion(c, TYPED_VERSION);
  const count = async (sql: string): Promise<Map<string, unknown>> => new Map((await c.runAndReadAll(sql)).getRows().map((r) => [String(r[0]), r[1]]));
  // One pass over raw_records for every stream; a table's count DuckDB keeps.
  const raw = await count(`SELECT stream, count(*) FROM raw_records WHERE stream IN (${TYPED_AT_LOAD.map(literal).join(', ')}) GROUP BY stream`);
  const typed = await count(TYPED_AT_LOAD.map((s) => `SELECT ${literal(s)}, count(*) FROM ${ident(`typed_${s}`)}`).join(' UNION ALL '));
  const retyped: TypedStream[] = [];
  for (const stream of TYPED_AT_LOAD) {
    if (!all && recorded === version && (raw.get(stream) ?? 0n) === typed.get(stream)) continue;
    await typeAgain(c, stream);
    retyped.push(stream);
  }
  if (recorded !== version) await recordModelVersion(c, TYPED_VERSION, version, now);
  return retyped;
}

/**
 * Types every record of `stream` again from raw_records into a new typed table of the same columns and NOT NULL
 * constraints, in one statement (the table has no key: sql/warehouse/009_typed_tables_unindexed.sql).
 */
async function typeAgain(c: DuckDBConnection, stream: TypedStream): Promise<void> {
  const name = `typed_${stream}`;
  const table = ident(name);
  const notNull = (await c.runAndReadAll(`SELECT column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = ${literal(name)} AND NOT is_nullable`)).getRows().map((r) => String(r[0]));
  await c.run(`CREATE OR REPLACE TABLE ${table} AS FROM ${table} LIMIT 0`);
  for (const column of notNull) await c.run(`ALTER TABLE ${table} ALTER COLUMN ${ident(column)} SET NOT NULL`);
  await c.run(`INSERT INTO ${table} BY NAME SELECT * FROM ${ident(`lp_type_${stream}`)}('raw_records')`);
}
