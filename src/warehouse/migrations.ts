import type { DuckDBConnection } from '@duckdb/node-api';
import { runModel, sqlGraph } from './sql-graph.js';
import { inTransaction } from '../duckdb/transaction.js';
import { hasTables } from '../duckdb/tables.js';
import { timestampTz } from '../duckdb/time-values.js';
import { remakeDroppedViews, viewNames } from './upgrade-views.js';

/**
 * Brings a warehouse's schema up to this release: each file of `sql/warehouse/` runs once, in name order, in
 * its own transaction with the row that records it in `schema_migrations`. A warehouse of the first release
 * has no `schema_migrations`: its `001` runs again (every statement in it is idempotent) and the later files
 * migrate it. A view a file drops (one naming a column it renames) is made again from this release's files in the
 * same transaction (upgrade-views.ts). Returns the names of the files applied now.
 *
 * @example
 * const applied = await migrate(connection, Date.now()); // ['warehouse/002_second_release.sql'] on a first-release warehouse
 */
export async function migrate(connection: DuckDBConnection, now: number): Promise<string[]> {
  await runModel(connection, 'load/schema_migrations.sql');
  const done = new Set(
    (await connection.runAndReadAll('SELECT name FROM schema_migrations')).getRows().map((r) => String(r[0])),
  );
  const applied: string[] = [];
  for (const file of (await sqlGraph()).folder('warehouse')) {
    if (done.has(file.name)) continue;
    await inTransaction(connection, async (c) => {
      const views = await viewNames(c);
      await runModel(c, file.name);
      await remakeDroppedViews(c, views);
      await c.run('INSERT INTO schema_migrations VALUES ($name, $now)', { name: file.name, now: timestampTz(now) });
    });
    applied.push(file.name);
  }
  return applied;
}

/** The files of `sql/warehouse/` a warehouse has not run yet, read without writing anything. */
export async function pendingMigrations(connection: DuckDBConnection): Promise<string[]> {
  const done = !(await hasTables(connection, ['schema_migrations']))
    ? new Set<string>()
    : new Set(
        (await connection.runAndReadAll('SELECT name FROM schema_migrations')).getRows().map((r) => String(r[0])),
      );
  return (await sqlGraph())
    .folder('warehouse')
    .map((f) => f.name)
    .filter((name) => !done.has(name));
}
