import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';

/**
 * Each statement of fixed text prepared once per connection, for statements run again and again (a loader's
 * batches, the prices stage's spans): DuckDB planned such a statement anew each time it ran (docs/performance.md,
 * "Start-up" and "Prices"). DuckDB plans a prepared statement again by itself when the catalog it was planned on
 * has changed. The warehouse runs one piece of work at a time on its connection, so nothing binds a statement
 * between another's bind and run.
 *
 * No upsert is prepared: in DuckDB 1.5.5 an `INSERT ... SELECT` with `ON CONFLICT` (or `INSERT OR REPLACE`, or
 * `OR IGNORE`) prepared once and run again writes wrong rows. Thirty runs of 50 staged rows each left 11 rows
 * holding values no row had (test/duckdb/prepared.test.ts keeps the case). An `INSERT ... VALUES`, a plain
 * `INSERT ... SELECT` and a `DELETE` prepared and run again write exactly what they are given.
 */
const preparedStatements = new WeakMap<DuckDBConnection, Map<string, Promise<DuckDBPreparedStatement>>>();

// MERGE INTO too: its updates and inserts go the same way, and no run of it has been checked.
const UPSERT = /\bON\s+CONFLICT\b|\bINSERT\s+OR\s+(REPLACE|IGNORE)\b|\bMERGE\s+INTO\b/i;

export function preparedOn(c: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let statements = preparedStatements.get(c);
  if (statements === undefined) preparedStatements.set(c, (statements = new Map()));
  let statement = statements.get(sql);
  if (statement === undefined) {
    // Checked once, when a statement is first prepared: one refused is never kept, and is refused each time.
    if (UPSERT.test(sql)) {
      return Promise.reject(
        new Error(
          'an upsert is not prepared: DuckDB 1.5.5 writes wrong rows when one runs again (src/duckdb/prepared.ts); run it with connection.run',
        ),
      );
    }
    statement = c.prepare(sql);
    statements.set(sql, statement);
    // A statement that could not be prepared is prepared again by the next caller, which then says why.
    statement.catch(() => statements.delete(sql));
  }
  return statement;
}

/** Runs `sql`, prepared once on `c` (preparedOn), with `values` bound to its parameters. */
export async function runPrepared(
  c: DuckDBConnection,
  sql: string,
  values: Record<string, DuckDBValue> = {},
): Promise<void> {
  const statement = await preparedOn(c, sql);
  statement.bind(values);
  await statement.run();
}
