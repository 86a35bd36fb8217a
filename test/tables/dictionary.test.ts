import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeGains } from '../../src/gains/gains.js';
import { DICTIONARY } from '../../src/tables/index.js';
import { runTransforms } from '../../src/transform/runner.js';
import { FIAT_VALUE_DESCRIPTION } from '../../src/warehouse/dictionary.js';
import { applyValuation } from '../../src/warehouse/values.js';
import { GOLDEN } from '../transform/fixtures.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';

let context: Awaited<ReturnType<typeof tempWarehouse>>;
beforeAll(async () => {
  context = await tempWarehouse();
  await loadRaw(context.warehouse, GOLDEN);
  await runTransforms(context.warehouse);
  await context.warehouse.transaction((c) => applyValuation(c, { fiat: 'EUR', fiatSource: 'pair', timeZone: 'UTC' }));
  // The tables of realized gains, as every export makes them.
  await context.warehouse.exclusive((c) =>
    computeGains(c, { costBasis: 'fifo', pool: 'account', taxYearStart: '01-01', timeZone: 'UTC' }),
  );
});
afterAll(() => context.dispose());

describe('the data dictionary in the warehouse', () => {
  it('leaves no table, view or column of the schema main without a comment', async () => {
    expect(
      await rows(
        context.warehouse,
        "SELECT table_name, column_name FROM duckdb_columns() WHERE comment IS NULL AND NOT internal AND schema_name = 'main' AND database_name = current_database() ORDER BY ALL",
      ),
    ).toEqual([]);
    expect(
      await rows(
        context.warehouse,
        "SELECT table_name FROM duckdb_tables() WHERE comment IS NULL AND schema_name = 'main' AND database_name = current_database() UNION ALL SELECT view_name FROM duckdb_views() WHERE comment IS NULL AND NOT internal AND schema_name = 'main' AND database_name = current_database()",
      ),
    ).toEqual([]);
  });

  it("holds the registry's words for every table, view and column, and the fiat's for value_eur", async () => {
    const held = await rows(
      context.warehouse,
      "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE NOT internal AND schema_name = 'main' AND database_name = current_database() ORDER BY table_name, column_index",
    );
    const expected = DICTIONARY.flatMap((m) => [
      ...m.columns.map((c) => ({ table_name: m.name, column_name: c.name, comment: c.description })),
      ...(m.name === 'ledger_valued' || m.name === 'year_summary' || m.name === 'holdings'
        ? [{ table_name: m.name, column_name: 'value_eur', comment: FIAT_VALUE_DESCRIPTION }]
        : []),
    ]);
    const byRelation = (list: readonly Record<string, string | null>[]) =>
      list.map((r) => `${r['table_name']}.${r['column_name']}: ${r['comment']}`).sort();
    expect(byRelation(held)).toEqual(byRelation(expected));
    const relations = await rows(
      context.warehouse,
      "SELECT table_name AS name, comment FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database() UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' AND database_name = current_database() ORDER BY name",
    );
    expect(relations).toEqual(
      DICTIONARY.map((m) => ({ name: m.name, comment: m.description })).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});
