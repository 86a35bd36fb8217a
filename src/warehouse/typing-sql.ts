import { STREAM_TABLES } from '../tables/index.js';
import { typedColumns, type Column, type StreamTableDef } from '../streams/table.js';
import { fieldsOf, type Cast, type ColumnSource } from '../streams/source.js';
import { ident, literal } from '../duckdb/quote.js';
import { headerLines } from './sql-graph.js';

/**
 * The typing SQL of the streams, made from their columns' sources (each column's field and cast,
 * src/streams/source.ts; docs/adding-a-stream.md): `sql/generated/typing.sql`, written by `npm run generate`. What a
 * stream's SQL (sql/models/<stream>.sql) keeps by hand is what is more than renaming and casting: its ledger
 * legs, the macros its columns' expressions call, and for a table made from raw_records the rules it makes of the
 * typed rows (which record is kept, the balance a snapshot's row holds).
 */

/** The SQL of each cast: the macros of sql/macros/00_macros.sql that read the platform's text exactly. */
const CAST: Readonly<Record<Cast, (sql: string) => string>> = {
  text: (sql) => sql,
  json: (sql) => sql,
  amount: (sql) => `lp_amount(${sql})`,
  instant: (sql) => `lp_ms(${sql})`,
};

/** A name as SQL: bare when it is a plain identifier (every name the streams use), else quoted. */
const name = (text: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text) ? text : ident(text));

/**
 * A source's SQL over the macro's `source`: the record's fields as `r`; its account, partition, key, ts and payload.
 */
function sourceSql(source: ColumnSource): string {
  switch (source.kind) {
    case 'partition':
      return 'partition';
    case 'key':
      return 'key';
    case 'time':
      return 'ts';
    case 'expression':
      return source.sql;
    case 'field': {
      const read = `r.${name(source.field.name)}`;
      const cast = CAST[source.cast](source.emptyAsNull === true ? `nullif(${read}, '')` : read);
      return source.upper === true ? `upper(${cast})` : cast;
    }
  }
}

/** A column as the typing makes it: the record's account, partition and key (raw_records'), or its source. */
function columnSql(def: StreamTableDef, column: Column): string {
  if (column.from !== undefined) return sourceSql(column.from);
  if (column.name === 'account') return 'account';
  if (column.name === 'key') return 'key';
  if (column.name === def.typedAtLoad?.partitionColumn) return 'partition';
  throw new Error(`${def.name}.${column.name} says not where it comes from (src/streams/, its column's source)`);
}

/** The record's fields the typing reads, each with the type json_transform gives it, in the columns' order. */
function structOf(def: StreamTableDef): Record<string, 'VARCHAR' | 'JSON'> {
  const struct: Record<string, 'VARCHAR' | 'JSON'> = {};
  for (const column of def.columns) {
    const source = column.from;
    // A field read for its check alone (the record's time, the partition's own field) is not read by the SQL.
    if (source === undefined || ['time', 'partition', 'key'].includes(source.kind)) continue;
    for (const f of fieldsOf(source)) {
      const type = f.json === true || (source.kind === 'field' && source.cast === 'json') ? 'JSON' : 'VARCHAR';
      if (struct[f.name] !== undefined && struct[f.name] !== type && type === 'VARCHAR') continue;
      struct[f.name] = type;
    }
  }
  return struct;
}

/** A JSON structure for json_transform, a few fields to a line. */
function structText(struct: Record<string, string>): string {
  const lines: string[] = [];
  for (const entry of Object.entries(struct).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + entry.length < 100) lines[lines.length - 1] = `${last},${entry}`;
    else lines.push(entry);
  }
  return `{${lines.join(',\n      ')}}`;
}

/**
 * The columns the typing makes: a typed table's (typedColumns), or of a table made from raw_records the table's
 * columns that have a source, in its order (those without one its SQL makes of them).
 */
function typingColumns(def: StreamTableDef): readonly Column[] {
  if (def.typedAtLoad !== undefined) return typedColumns({ ...def, typedAtLoad: def.typedAtLoad });
  return def.columns.filter((c) => c.from !== undefined || c.name === 'account');
}

/**
 * The macro lp_type_<stream>(src): the stream's records of `src` (raw_records, a batch of it, or any relation with its
 * columns), renamed and cast into its typed table's columns, or those of its table that have a source.
 */
export function typingMacro(def: StreamTableDef): string {
  const columns = typingColumns(def).map((c) => ({ name: c.name, sql: columnSql(def, c) }));
  const width = Math.max(...columns.map((c) => c.sql.length)) + 2;
  const select = columns.map((c) =>
    c.sql === name(c.name) ? `  ${c.sql}` : `  ${c.sql.padEnd(width)}AS ${name(c.name)}`,
  );
  const payload = columns.some((c) => /\bpayload\b/.test(c.sql)) ? ' payload,' : '';
  return `-- ${def.name}: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO ${name(`lp_type_${def.name}`)}(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,${payload}
    json_transform(payload, ${literal(structText(structOf(def)))}) AS r
  FROM query_table(src)
  WHERE stream = ${literal(def.name)}
)
SELECT
${select.join(',\n')}
FROM source;`;
}

/** The macros of other files a piece of SQL calls (lp_<name>), in the order it first calls them. */
function macrosCalled(sql: string): string[] {
  return [...new Set([...sql.matchAll(/\b(lp_[a-z0-9_]+)\(/g)].map((m) => m[1] as string))];
}

/**
 * `sql/generated/typing.sql`: the typing macro of every stream, which a warehouse holds whenever it is open.
 */
export function typingFile(defs: readonly StreamTableDef[] = STREAM_TABLES): string {
  const macros = defs.map(typingMacro);
  const creates = defs.map((m) => `lp_type_${m.name}`);
  const reads = macrosCalled(macros.join('\n')).filter((m) => !creates.includes(m));
  return `-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by \`npm run generate\`: do not edit.
-- The typing of each stream (docs/adding-a-stream.md): the macro lp_type_<stream>(src), made from the stream's
-- columns, each with its field and cast (src/streams/source.ts), renames and casts the stream's records of any
-- relation with raw_records' columns. Of a stream typed at load, the raw writer runs it over each batch as it is
-- committed (src/warehouse/typed-at-load.ts), the transform over raw_records when the typing changed; of the others,
-- their SQL makes its table of it. What is more than a cast is in the stream's SQL (sql/models/<stream>.sql).
${headerLines({ creates, reads, params: [] })}

${macros.join('\n\n')}
`;
}
