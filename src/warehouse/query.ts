import { DuckDBInstance, StatementType } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { describeOpenError, startUtcSession } from './warehouse.js';

export type QueryFormat = 'table' | 'csv' | 'json';

/** Statement kinds `query` runs: reads only. */
const READS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function render(columns: string[], rows: (string | null)[][], format: QueryFormat): string[] {
  if (format === 'json') return [JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null]))), null, 2)];
  if (format === 'csv') return [columns.map(csvField).join(','), ...rows.map((row) => row.map((v) => (v === null ? '' : csvField(v))).join(','))];
  const cells = rows.map((row) => row.map((v) => (v === null ? 'NULL' : v)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), `(${rows.length} row${rows.length === 1 ? '' : 's'})`];
}

/**
 * Runs one read-only statement on the warehouse, opened read-only, and returns the lines to print. Values are
 * DuckDB's own text forms, so decimals print exactly. A write is refused before it runs.
 *
 * @example
 * await runQuery('./ledgerpipe.duckdb', 'SELECT count(*) FROM ledger', 'csv') // => ['count_star()', '42']
 */
export async function runQuery(path: string, sql: string, format: QueryFormat): Promise<string[]> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const connection = await instance.connect();
  try {
    await startUtcSession(connection);
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
    if (!READS.has(prepared.statementType)) {
      throw new UsageError(`query only reads; this statement (${StatementType[prepared.statementType]}) would change something — use a SELECT`);
    }
    const reader = await prepared.runAndReadAll();
    const columns = reader.columnNames();
    const rows = reader.getRows().map((row) => row.map((v) => (v === null ? null : String(v))));
    return render(columns, rows, format);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
