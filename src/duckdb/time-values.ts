import { DuckDBTimestampTZValue } from './duckdb.js';

/**
 * A Unix-millisecond instant as a DuckDB TIMESTAMPTZ bind value: exact, whatever the session's time zone.
 *
 * @example
 * await connection.run('DELETE FROM coverage WHERE window_start = $start', { start: timestampTz(Date.UTC(2025, 0, 1)) });
 */
export function timestampTz(ms: number): DuckDBTimestampTZValue {
  return new DuckDBTimestampTZValue(BigInt(ms) * 1000n);
}

/** The same instant as SQL text, for statements that take no bind values (COPY). */
export function timestampTzSql(ms: number): string {
  return `make_timestamptz(${BigInt(ms) * 1000n})`;
}
