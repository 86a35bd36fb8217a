import type { DuckDBConnection } from '@duckdb/node-api';
import { runModel } from './sql-graph.js';
import { makeValueViews } from './values.js';

/**
 * How this release makes each view a migration may drop. A migration that renames a column drops the views that
 * name it (sql/warehouse/013_plain_names.sql): DuckDB binds a view when it is queried, and one naming a column
 * that is gone fails then. The transform makes every view again, but `status` and `query` may come first.
 */
const MAKERS: Readonly<Record<string, (c: DuckDBConnection) => Promise<void>>> = {
  reconciliation: async (c) => {
    await runModel(c, 'completeness/40_reconciliation.sql');
  },
  // The views of values, holdings among them, with the valuation the warehouse records (src/warehouse/values.ts).
  holdings: makeValueViews,
  lp_holdings_valued: makeValueViews,
};

/** The views of the schema main, by name. */
export async function viewNames(c: DuckDBConnection): Promise<Set<string>> {
  const reader = await c.runAndReadAll(
    "SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal AND database_name = current_database()",
  );
  return new Set(reader.getRows().map((r) => String(r[0])));
}

/**
 * Makes again, from this release's files, the views of `before` the warehouse no longer has: those a migration
 * dropped, in the migration's transaction, so that a warehouse is never left without them. Each maker runs once
 * (the views of values are made together). Only views the warehouse had are made: their inputs are there. Returns
 * the views made.
 *
 * @example
 * const before = await viewNames(c);
 * await runModel(c, migration.name);
 * await remakeDroppedViews(c, before); // ['holdings', 'lp_holdings_valued', 'reconciliation'] after 013
 */
export async function remakeDroppedViews(c: DuckDBConnection, before: ReadonlySet<string>): Promise<string[]> {
  const after = await viewNames(c);
  const dropped = [...before].filter((v) => !after.has(v) && MAKERS[v] !== undefined).sort();
  const makers = new Set(dropped.map((v) => MAKERS[v] as (c: DuckDBConnection) => Promise<void>));
  for (const make of makers) await make(c);
  return dropped;
}
