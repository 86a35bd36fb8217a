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
}

/** A table or view users read. */
export interface Model {
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
 * A stream's model: the table or view of its records, one row per record, and the facts the stages share about
 * it. Declared beside the stream's endpoint (src/streams/<stream>.ts); its SQL is `sql/models/<stream>.sql`.
 */
export interface StreamModel extends Model {
  /**
   * Typed at load: each record's typed columns are written with it (table `typed_<stream>`, by the macro
   * `lp_type_<stream>` of its SQL model), and the model is a view on that table; `partitionColumn` is the column
   * of `typed_<stream>` that holds the record's partition (raw_records.partition). Absent: the model is a table
   * its SQL model makes from raw_records at each transform that finds records of its stream loaded since the last.
   */
  typedAtLoad?: { partitionColumn: string };
  /** The model's column that holds the record's key (raw_records.key; the ledger's source_id). */
  keyColumn: string;
  /**
   * How the ledger books the stream's records (its SQL model's macro `lp_legs_<stream>`): `paired` when the legs
   * of one millisecond form one trade (trade_group), `alone` when each record's legs stand by themselves.
   * Absent: the ledger does not book it.
   */
  ledger?: 'paired' | 'alone';
  /** Models made from this one (the fills' fee entries), listed after it. */
  derived?: readonly Model[];
}

/** Column helpers: the types DuckDB gives them, so that a declaration reads as a list of names and meanings. */
export const text = (name: string, description: string): Column => ({ name, type: 'VARCHAR', description });
export const amount = (name: string, description: string): Column => ({ name, type: 'DECIMAL(38,18)', description });
export const instant = (name: string, description: string): Column => ({ name, type: 'TIMESTAMP WITH TIME ZONE', description });
export const json = (name: string, description: string): Column => ({ name, type: 'JSON', description });

/** The account column every model starts with. */
export const accountColumn = text('account', "The account the row belongs to: the profile's name in the config file, `default` without one.");

/** A model's `ts`: the record's time, from the API field named. */
export const tsColumn = (field: string): Column => instant('ts', `The record's time (the API's \`${field}\`), as an instant; shown in UTC.`);

/**
 * The columns of `typed_<stream>`: the account, the partition column, the raw key, then the model's other
 * columns in its order (sql/warehouse/006_typed_at_load.sql and 007 made the first of them).
 */
export function typedColumns(model: StreamModel & { typedAtLoad: { partitionColumn: string } }): Column[] {
  const { partitionColumn } = model.typedAtLoad;
  const partition = model.columns.find((c) => c.name === partitionColumn) ?? text(partitionColumn, 'The partition the record was read under (raw_records.partition).');
  const account = model.columns.find((c) => c.name === 'account') ?? accountColumn;
  const key = text('key', "The record's key as raw_records holds it (the API's own id).");
  const rest = model.columns.filter((c) => c.name !== 'account' && c.name !== partitionColumn);
  return [account, partition, key, ...rest];
}

/** The columns of `typed_<stream>` that are never NULL: what identifies the record, and its time. */
export function notNullColumns(model: { typedAtLoad: { partitionColumn: string } }): string[] {
  return ['account', model.typedAtLoad.partitionColumn, 'key', 'ts'];
}
