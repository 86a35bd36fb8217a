import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from './duckdb.js';

/**
 * Whether every one of `names` is a table or view of the warehouse: readers of what a transform builds ask
 * first, since a warehouse no transform has run on (or an older one) lacks them.
 */
export async function hasTables(connection: DuckDBConnection, names: readonly string[]): Promise<boolean> {
  const reader = await connection.runAndReadAll("SELECT count(DISTINCT table_name) FROM information_schema.tables WHERE table_schema = 'main' AND list_contains($names, table_name)", {
    names: listValue([...names]),
  });
  return Number(reader.getRows()[0]?.[0] ?? 0) === new Set(names).size;
}
