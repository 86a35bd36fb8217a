import { stringify } from 'csv-stringify/sync';
import { type DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement, DuckDBTypeId, StatementType } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { describeOpenError, startUtcSession } from './warehouse.js';

export type QueryFormat = 'table' | 'csv' | 'json';

/**
 * How `query` opens the warehouse: read-only, with no access to any file but the warehouse (no COPY TO, no
 * read_csv or read_text of other files, no ATTACH), and no extension installed or loaded. After the session is
 * set up, the configuration is locked, so a statement cannot SET its way back.
 */
const LOCKED_DOWN = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
} as const;

/** Leading comments, then EXPLAIN with its options: what wraps the statement an EXPLAIN runs. */
const EXPLAIN_PREFIX = /^\s*(?:(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)\s*)*explain\s+(?:analy[sz]e\s+|\([^)]*\)\s*)?/i;

/**
 * The one statement of `sql`, prepared, when it only reads: a SELECT (DESCRIBE, SHOW and FROM-first queries
 * are SELECTs), or an EXPLAIN of one, which is checked inside: EXPLAIN ANALYZE runs what it explains.
 */
async function preparedRead(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let statements;
  try {
    statements = await connection.extractStatements(sql);
  } catch (error) {
    throw new UsageError(`the query does not parse: ${(error as Error).message.split('\n')[0]}`, error);
  }
  if (statements.count !== 1) throw new UsageError(`give one statement to query, not ${statements.count}`);
  let prepared;
  try {
    prepared = await statements.prepare(0);
  } catch (error) {
    throw new UsageError(`the query cannot run: ${(error as Error).message.split('\n')[0]}`, error);
  }
  const refuse = (type: StatementType) =>
    new UsageError(`query only reads; this statement (${StatementType[type]}) would change something — use a SELECT`);
  if (prepared.statementType === StatementType.SELECT) return prepared;
  if (prepared.statementType !== StatementType.EXPLAIN) throw refuse(prepared.statementType);
  const explained = sql.replace(EXPLAIN_PREFIX, '');
  if (explained === sql) throw new UsageError('query cannot tell what this EXPLAIN runs; write it as EXPLAIN <select>');
  const inner = await preparedRead(connection, explained);
  if (inner.statementType !== StatementType.SELECT) throw refuse(inner.statementType);
  return prepared;
}

/**
 * A text cell a spreadsheet would take for a formula, with a single quote in front; a plain number stays as it
 * is. The rule of the SQL macro lp_csv_text (sql/macros/00_macros.sql), for query's CSV, whose values come from
 * DuckDB already as text.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/** JSON or a table: both need every row before the first line (a JSON array, the columns' widths). */
function render(columns: string[], rows: (string | null)[][], format: 'table' | 'json'): string[] {
  if (format === 'json') return [JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null]))), null, 2)];
  const cells = rows.map((row) => row.map((v) => (v === null ? 'NULL' : v)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), `(${rows.length} row${rows.length === 1 ? '' : 's'})`];
}

const asText = (row: readonly unknown[]): (string | null)[] => row.map((v) => (v === null ? null : String(v)));

/** CSV lines (RFC 4180, by csv-stringify), without the last line break: the caller writes one per call. */
function csvLines(rows: readonly (readonly (string | null)[])[]): string {
  return stringify(rows as (string | null)[][], { record_delimiter: '\n' }).slice(0, -1);
}

/**
 * Runs one read-only statement on the warehouse, opened read-only and locked down (LOCKED_DOWN), and hands the
 * lines to print to `out`. Values are DuckDB's own text forms, so decimals print exactly. CSV is written chunk
 * by chunk as DuckDB streams the result, so a table of millions of rows is never held whole; its text columns
 * are neutralised (neutraliseFormula), numbers and times never. A write is refused before it runs; a read of any
 * other file fails.
 *
 * @example
 * await runQuery('./ledgerpipe.duckdb', 'SELECT count(*) FROM ledger', 'csv', console.log) // prints count_star() and 42
 */
export async function runQuery(path: string, sql: string, format: QueryFormat, out: (line: string) => void): Promise<void> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, LOCKED_DOWN);
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const connection = await instance.connect();
  try {
    await startUtcSession(connection);
    await connection.run('SET lock_configuration = true');
    const prepared = await preparedRead(connection, sql);
    const cannotRun = (error: unknown) => new UsageError(`the query cannot run: ${(error as Error).message.split('\n')[0]}`, error);
    if (format !== 'csv') {
      const reader = await prepared.runAndReadAll().catch((error: unknown) => Promise.reject(cannotRun(error)));
      for (const line of render(reader.columnNames(), reader.getRows().map(asText), format)) out(line);
      return;
    }
    const result = await prepared.stream().catch((error: unknown) => Promise.reject(cannotRun(error)));
    // Text columns only: numbers and times are not text, so -12.5 stays -12.5.
    const text = result.columnTypes().map((t) => t.typeId === DuckDBTypeId.VARCHAR);
    out(csvLines([result.columnNames()]));
    for (;;) {
      const chunk = await result.fetchChunk().catch((error: unknown) => Promise.reject(cannotRun(error)));
      if (chunk === null || chunk.rowCount === 0) break;
      out(csvLines(chunk.getRows().map((row) => asText(row).map((v, i) => (v !== null && text[i] === true ? neutraliseFormula(v) : v)))));
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
