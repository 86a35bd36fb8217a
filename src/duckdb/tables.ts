import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from './duckdb.js';
import { ident } from './quote.js';

/**
 * Whether every one of `names` is a table or view of the warehouse: readers of what a transform builds ask
 * first, since a warehouse no transform has run on (or an older one) lacks them.
 */
export async function hasTables(connection: DuckDBConnection, names: readonly string[]): Promise<boolean> {
  // The catalog functions information_schema.tables is a view of (every database's tables and views): 3.4 ms
  // where the view took 5.8 ms, asked before most reads of a run.
  const reader = await connection.runAndReadAll(
    `SELECT count(DISTINCT name) FROM (SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main'
     UNION ALL SELECT view_name FROM duckdb_views() WHERE schema_name = 'main') WHERE list_contains($names, name)`,
    { names: listValue([...names]) },
  );
  return Number(reader.getRows()[0]?.[0] ?? 0) === new Set(names).size;
}

/**
 * Drops the temporary tables and views of `names` this connection holds (those it does not hold are left alone):
 * what a piece of work made for itself on a connection that goes on working.
 */
export async function dropTemporary(connection: DuckDBConnection, names: readonly string[]): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name, 'TABLE' FROM duckdb_tables() WHERE temporary AND list_contains($names, table_name)
     UNION ALL SELECT view_name, 'VIEW' FROM duckdb_views() WHERE temporary AND list_contains($names, view_name)`,
    { names: listValue([...names]) },
  );
  // Views first: one may read a table of the list.
  const found = reader.getRows().map((r) => ({ name: String(r[0]), kind: String(r[1]) }));
  for (const { name, kind } of found.sort((a, b) => b.kind.localeCompare(a.kind)))
    await connection.run(`DROP ${kind} IF EXISTS temp.main.${ident(name)}`);
}
