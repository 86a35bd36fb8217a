import type { DuckDBConnection } from '@duckdb/node-api';
import { runPrepared } from '../duckdb/prepared.js';
import { ident, literal } from '../duckdb/quote.js';
import { readRecordedVersions, recordVersions } from './versions.js';
import { TYPED_AT_LOAD } from '../tables/index.js';
import { typedColumns } from '../streams/table.js';
import { typedTableDdl } from './registry-sql.js';

/**
 * The streams whose typed columns are written with their raw records (docs/transform.md): a
 * table `typed_<stream>` filled by the macro `lp_type_<stream>` (sql/generated/typing.sql), of which the stream's
 * table is a view. Every stream the ledger books; P2P advertisements and balance snapshots, which it does not,
 * are few and stay tables made from raw_records by each transform. The registry of tables says which (src/tables/).
 */
export const TYPED_STREAMS: readonly string[] = TYPED_AT_LOAD.map((m) => m.name);

/** The column of each typed table that holds its record's partition in raw_records. */
const TYPED_PARTITION = new Map(TYPED_AT_LOAD.map((m) => [m.name, m.typedAtLoad.partitionColumn]));

/**
 * Types `stream`'s records in `source` (a table or view with raw_records' columns) into `typed_<stream>`. The
 * typed tables have no key (sql/warehouse/009_typed_tables_unindexed.sql): with `replacing`, some of the records
 * were loaded before (a window read again, a changed status), and their earlier rows are deleted first.
 */
export async function typeRecords(
  c: DuckDBConnection,
  stream: string,
  source: string,
  replacing: boolean,
): Promise<void> {
  const table = ident(`typed_${stream}`);
  if (replacing) {
    const partition = ident(TYPED_PARTITION.get(stream) as string);
    await c.run(`DELETE FROM ${table} AS t USING ${ident(source)} AS s
      WHERE s.stream = ${literal(stream)} AND t.account = s.account AND t.${partition} = s.partition AND t.key = s.key`);
  }
  // Prepared once per connection: DuckDB planned the typing macro anew for each batch, 14-22 ms for 100 fills,
  // 4-6 ms prepared.
  await runPrepared(c, `INSERT INTO ${table} BY NAME SELECT * FROM ${ident(`lp_type_${stream}`)}(${literal(source)})`);
}

/**
 * Whether a loader may type its records as it loads them: when the typed tables are of this release's typing, or
 * when there is nothing typed or to type yet (a new warehouse: this release's version is recorded now). Otherwise
 * (a warehouse typed by another release) the records are loaded raw, and the next transform types every one
 * again: rows of two typings must never sit in one table under one version.
 */
export async function typesAtLoad(c: DuckDBConnection, version: string, now: number): Promise<boolean> {
  const recorded = (await readRecordedVersions(c)).typing;
  if (recorded === version) return true;
  if (recorded !== undefined) return false;
  const held = TYPED_STREAMS.map(
    (s) =>
      `(SELECT count(*) FROM raw_records WHERE stream = ${literal(s)}) + (SELECT count(*) FROM ${ident(`typed_${s}`)})`,
  ).join(' + ');
  if (Number((await c.runAndReadAll(`SELECT ${held}`)).getRows()[0]?.[0]) > 0) return false;
  await recordVersions(c, { typing: version }, now);
  return true;
}

/**
 * Makes the typed tables whole before the transform reads them, in a transaction of their own: when they were typed by
 * another release (model_versions 'typed_at_load', RecordedVersions.typing), or hold another number of rows than
 * raw_records (a warehouse of an earlier release, records moved back from quarantine), they are typed again from
 * raw_records, which stays enough to replay every transform; with `all` (transform --full), every stream is. Returns
 * the streams typed again.
 */
export async function ensureTyped(c: DuckDBConnection, version: string, now: number, all = false): Promise<string[]> {
  const recorded = (await readRecordedVersions(c)).typing;
  const count = async (sql: string): Promise<Map<string, unknown>> =>
    new Map((await c.runAndReadAll(sql)).getRows().map((r) => [String(r[0]), r[1]]));
  // One pass over raw_records for every stream; a table's count DuckDB keeps.
  const raw = await count(
    `SELECT stream, count(*) FROM raw_records WHERE stream IN (${TYPED_STREAMS.map(literal).join(', ')}) GROUP BY stream`,
  );
  const typed = await count(
    TYPED_STREAMS.map((s) => `SELECT ${literal(s)}, count(*) FROM ${ident(`typed_${s}`)}`).join(' UNION ALL '),
  );
  const retyped: string[] = [];
  for (const stream of TYPED_STREAMS) {
    if (!all && recorded === version && (raw.get(stream) ?? 0n) === typed.get(stream)) continue;
    await typeAgain(c, stream);
    retyped.push(stream);
  }
  if (recorded !== version) await recordVersions(c, { typing: version }, now);
  return retyped;
}

/**
 * Types every record of `stream` again from raw_records into a new typed table, in one statement (the table has
 * no key: sql/warehouse/009_typed_tables_unindexed.sql).
 */
async function typeAgain(c: DuckDBConnection, stream: string): Promise<void> {
  await c.run(typedTableDdl(typedTableDef(stream), { replace: true }));
  await c.run(
    `INSERT INTO ${ident(`typed_${stream}`)} BY NAME SELECT * FROM ${ident(`lp_type_${stream}`)}('raw_records')`,
  );
}

function typedTableDef(stream: string): (typeof TYPED_AT_LOAD)[number] {
  const def = TYPED_AT_LOAD.find((m) => m.name === stream);
  if (def === undefined) throw new Error(`${stream} is not typed at load`);
  return def;
}

/**
 * Makes each stream typed at load have its typed table, with every column the registry of tables gives it
 * (src/streams/<stream>.ts): a table made, a column added as NULL, for a stream or a column new in this release.
 * Migrations 006, 007 and 009 made the tables of earlier releases; from this release on the registry does, when
 * every warehouse opens for writing.
 */
export async function syncTypedTables(c: DuckDBConnection): Promise<void> {
  const held = await c.runAndReadAll(
    "SELECT table_name, column_name FROM duckdb_columns() WHERE schema_name = 'main' AND starts_with(table_name, 'typed_')",
  );
  const columns = new Set(held.getRows().map((r) => `${String(r[0])}.${String(r[1])}`));
  for (const def of TYPED_AT_LOAD) {
    const table = `typed_${def.name}`;
    if (!columns.has(`${table}.account`)) {
      await c.run(typedTableDdl(def, { replace: false }));
      continue;
    }
    for (const column of typedColumns(def).filter((col) => !columns.has(`${table}.${col.name}`))) {
      await c.run(`ALTER TABLE ${ident(table)} ADD COLUMN ${ident(column.name)} ${column.type}`);
    }
  }
}
