import { stringify } from 'csv-stringify/sync';
import { withLakeQuery, withQuery, type QueryResult } from '../reads/query.js';

export type QueryFormat = 'table' | 'csv' | 'json';

/**
 * A text cell a spreadsheet would take for a formula, with a single quote in front; a plain number stays as it
 * is. The rule of the SQL macro lp_csv_text (sql/macros/00_macros.sql), for query's CSV, whose values come from
 * DuckDB already as text.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/** CSV lines (RFC 4180, by csv-stringify), without the last line break: the caller writes one per call. */
function csvLines(rows: readonly (readonly (string | null)[])[]): string {
  return stringify(rows as (string | null)[][], { record_delimiter: '\n' }).slice(0, -1);
}

/** CSV chunk by chunk as DuckDB streams it, so a result of millions of rows is never held whole. */
async function writeCsv(result: QueryResult, out: (line: string) => void): Promise<void> {
  out(csvLines([result.columns]));
  // Text columns only: numbers and times are not text, so -12.5 stays -12.5.
  const cell = (v: string | null, i: number) =>
    v !== null && result.textColumns[i] === true ? neutraliseFormula(v) : v;
  for await (const rows of result.chunks) out(csvLines(rows.map((row) => row.map(cell))));
}

/** JSON or a table: both need every row before the first line (a JSON array, the columns' widths). */
async function writeWhole(result: QueryResult, format: 'table' | 'json', out: (line: string) => void): Promise<void> {
  const rows: (string | null)[][] = [];
  for await (const chunk of result.chunks) rows.push(...chunk);
  const { columns } = result;
  if (format === 'json') {
    out(
      JSON.stringify(
        rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null]))),
        null,
        2,
      ),
    );
    return;
  }
  const cells = rows.map((row) => row.map((v) => (v === null ? 'NULL' : v)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  for (const text of [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)]) out(text);
  out(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
}

/**
 * `query`: runs one read-only statement on the warehouse (or a lake, `query --lake`) and writes its result in `format`
 * to `out`, a line (or, for CSV, a chunk of lines) per call.
 *
 * @example
 * await runQuery('./ledgerpipe.duckdb', 'SELECT count(*) FROM ledger', 'csv', console.log) // prints count_star() and 42
 */
export function runQuery(
  path: string,
  sql: string,
  format: QueryFormat,
  out: (line: string) => void,
  source: 'warehouse' | 'lake' = 'warehouse',
): Promise<void> {
  const write = (result: QueryResult) => (format === 'csv' ? writeCsv(result, out) : writeWhole(result, format, out));
  return source === 'lake' ? withLakeQuery(path, sql, write) : withQuery(path, sql, write);
}
