import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Runs `work` on `c` inside BEGIN ... COMMIT, rolling back when it throws: its error is the one thrown, even when
 * the rollback fails too (a database DuckDB gave up on refuses it).
 */
export async function inTransaction<T>(c: DuckDBConnection, work: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  await c.run('BEGIN TRANSACTION');
  try {
    const result = await work(c);
    await c.run('COMMIT');
    return result;
  } catch (error) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `work` on `c` inside a transaction that is always rolled back: what it makes to read something (a model the
 * transform makes, before any transform) is gone after it. Its error, if any, is the one thrown.
 */
export async function inRolledBackTransaction<T>(
  c: DuckDBConnection,
  work: (c: DuckDBConnection) => Promise<T>,
): Promise<T> {
  await c.run('BEGIN TRANSACTION');
  try {
    return await work(c);
  } finally {
    await c.run('ROLLBACK').catch(() => undefined);
  }
}
