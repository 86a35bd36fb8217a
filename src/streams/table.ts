import { z } from 'zod';
import { field, sourceOf, time, type Cast, type ColumnSource, type From } from './source.js';

/**
 * What a table or view of the warehouse holds, told once (docs/adding-a-stream.md; docs/tables.md): its
 * columns with their DuckDB types and what each means. The warehouse's data dictionary (`COMMENT ON`), the page
 * docs/tables.md and the typed tables' DDL are made from these; a test holds each against the warehouse.
 */

/** A column's type as DuckDB's DESCRIBE writes it. */
export type ColumnType =
  | 'VARCHAR'
  | 'VARCHAR[]'
  | 'DECIMAL(38,18)'
  | 'TIMESTAMP WITH TIME ZONE'
  | 'TIMESTAMP WITH TIME ZONE[]'
  | 'TIMESTAMP'
  | 'DATE'
  | 'JSON'
  | 'BOOLEAN'
  | 'INTEGER'
  | 'BIGINT'
  | `STRUCT(${string})`;

export interface Column {
  name: string;
  type: ColumnType;
  /** One or two sentences for a person querying the warehouse: what the column holds, and from where. */
  description: string;
  /**
   * Of a stream's column: where it comes from in the record, and its cast (src/streams/source.ts). The record schema
   * and the typing SQL are made from these. Absent: a column the stream's SQL makes by a rule of its own.
   */
  from?: ColumnSource;
}

/** A table or view users read. */
export interface TableDef {
  name: string;
  kind: 'table' | 'view';
  description: string;
  columns: readonly Column[];
  /**
   * Written by export as `<name>.csv` and `.parquet`, rows ordered by ts, then `key`, then account, without the
   * columns `omit` names (docs/files.md).
   */
  exported?: { key: string; omit?: readonly string[] };
}

/**
 * A stream's table: the table or view of its records, one row per record, and the facts the stages share about
 * it. Declared beside the stream's endpoint (src/streams/<stream>.ts); its SQL is `sql/models/<stream>.sql`.
 */
export interface StreamTableDef extends TableDef {
  /**
   * Typed at load: each record's typed columns are written with it (table `typed_<stream>`, by the macro
   * `lp_type_<stream>` of sql/generated/typing.sql), and the stream's table is a view on that one; `partitionColumn`
   * is the column of `typed_<stream>` that holds the record's partition (raw_records.partition). Absent: the stream's
   * table is one its SQL makes from raw_records at each transform that finds records of its stream loaded since the
   * last.
   */
  typedAtLoad?: { partitionColumn: string };
  /** The table's column that holds the record's key (raw_records.key; the ledger's source_id). */
  keyColumn: string;
  /**
   * How the ledger books the stream's records (the macro `lp_legs_<stream>` of its SQL): `paired` when the legs
   * of one millisecond form one trade (trade_group), `alone` when each record's legs stand by themselves.
   * Absent: the ledger does not book it.
   */
  ledger?: 'paired' | 'alone';
  /** Tables made from this one (the fills' fee entries), listed after it. */
  derived?: readonly TableDef[];
}

/**
 * Column helpers: the types DuckDB gives them, so that a declaration reads as a list of names and meanings, each
 * with its source when the column is a stream's (its field is then cast by the column's type: src/streams/source.ts).
 */
const column =
  (type: Column['type'], cast: Cast) =>
  (name: string, description: string, from?: From): Column => ({
    name,
    type,
    description,
    ...(from === undefined ? {} : { from: sourceOf(from, cast) }),
  });
export const text = column('VARCHAR', 'text');
export const amount = column('DECIMAL(38,18)', 'amount');
export const instant = column('TIMESTAMP WITH TIME ZONE', 'instant');
export const json = column('JSON', 'json');

/** The account column every table starts with. */
export const accountColumn = text(
  'account',
  "The account the row belongs to: the profile's name in the config file, `default` without one.",
);

/**
 * A table's `ts`: the record's time, from the API field named; with `from`, a stream's, the field checked as given
 * (a check), or the fields given (a source).
 */
export const tsColumn = (name: string, from?: z.ZodType | From): Column =>
  instant(
    'ts',
    `The record's time (the API's \`${name}\`), as an instant; shown in UTC.`,
    from instanceof z.ZodType ? time(field(name, from)) : from,
  );

/**
 * The columns of `typed_<stream>`: the account, the partition column, the raw key, then the table's other
 * columns in its order (sql/warehouse/006_typed_at_load.sql and 007 made the first of them).
 */
export function typedColumns(def: StreamTableDef & { typedAtLoad: { partitionColumn: string } }): Column[] {
  const { partitionColumn } = def.typedAtLoad;
  const partition =
    def.columns.find((c) => c.name === partitionColumn) ??
    text(partitionColumn, 'The partition the record was read under (raw_records.partition).');
  const account = def.columns.find((c) => c.name === 'account') ?? accountColumn;
  const key = text('key', "The record's key as raw_records holds it (the API's own id).");
  const rest = def.columns.filter((c) => c.name !== 'account' && c.name !== partitionColumn);
  return [account, partition, key, ...rest];
}

/** The columns of `typed_<stream>` that are never NULL: what identifies the record, and its time. */
export function notNullColumns(def: { typedAtLoad: { partitionColumn: string } }): string[] {
  return ['account', def.typedAtLoad.partitionColumn, 'key', 'ts'];
}
