import type { DuckDBConnection } from '@duckdb/node-api';
import { DICTIONARY } from '../tables/index.js';
import type { TableDef } from '../streams/table.js';
import { ident, literal } from '../duckdb/quote.js';

/**
 * The description of a fiat's value column (value_eur with --fiat EUR), which ledger_valued and year_summary have
 * under the fiat's own name (src/warehouse/values.ts).
 */
export const FIAT_VALUE_DESCRIPTION =
  "The value in the run's fiat (--fiat), exact, rounded half-even at the 18th decimal; NULL without a price or a rate (docs/values.md).";

/**
 * The warehouse's data dictionary (docs/querying.md; docs/tables.md): a `COMMENT` on every table,
 * view and column users read, from the registry of tables, so that a SQL client shows what each means. Only what
 * differs is written (a COMMENT is a change to DuckDB's catalog, about 1 ms each): after a whole transform, which
 * makes the views again, and when the views of values are made again. A relation or column the warehouse does
 * not hold (yet) is passed over.
 */
export async function describeWarehouse(c: DuckDBConnection): Promise<void> {
  const held = await heldComments(c);
  const statements: string[] = [];
  for (const def of DICTIONARY) {
    const relation = held.get(def.name);
    if (relation === undefined) continue;
    const kind = relation.kind === 'view' ? 'VIEW' : 'TABLE';
    if (relation.comment !== def.description)
      statements.push(`COMMENT ON ${kind} ${ident(def.name)} IS ${literal(def.description)}`);
    for (const [column, comment] of relation.columns) {
      const description = describeColumn(def, column);
      if (description !== undefined && comment !== description)
        statements.push(`COMMENT ON COLUMN ${ident(def.name)}.${ident(column)} IS ${literal(description)}`);
    }
  }
  if (statements.length > 0) await c.run(statements.join(';\n'));
}

/** A column's description: the registry's, or the fiat's value column's. */
function describeColumn(def: TableDef, column: string): string | undefined {
  const described = def.columns.find((c) => c.name === column)?.description;
  if (described !== undefined) return described;
  return /^value_[a-z]{3,5}$/.test(column) && column !== 'value_usdt' ? FIAT_VALUE_DESCRIPTION : undefined;
}

interface HeldRelation {
  kind: 'table' | 'view';
  comment: string | null;
  columns: Map<string, string | null>;
}

/** Every relation of the schema main, with its comment and its columns' comments as DuckDB holds them. */
async function heldComments(c: DuckDBConnection): Promise<Map<string, HeldRelation>> {
  const relations = new Map<string, HeldRelation>();
  const tables =
    await c.runAndReadAll(`SELECT table_name, 'table', comment FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database()
    UNION ALL SELECT view_name, 'view', comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal AND database_name = current_database()`);
  for (const [name, kind, comment] of tables.getRows())
    relations.set(String(name), {
      kind: kind as 'table' | 'view',
      comment: comment === null ? null : String(comment),
      columns: new Map(),
    });
  const columns = await c.runAndReadAll(
    "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE schema_name = 'main' AND NOT internal AND database_name = current_database() ORDER BY table_name, column_index",
  );
  for (const [table, column, comment] of columns.getRows())
    relations.get(String(table))?.columns.set(String(column), comment === null ? null : String(comment));
  return relations;
}
