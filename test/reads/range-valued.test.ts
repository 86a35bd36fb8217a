import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { RANGE_VALUED, rangeValuedOf, withRangeValued } from '../../src/reads/range-valued.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows } from '../helpers/raw.js';
import { T, transformedGolden } from '../transform/fixtures.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ warehouse, dir, dispose } = await transformedGolden());
});
afterEach(async () => dispose());

const held = () =>
  rows(warehouse, `SELECT count(*) AS n FROM duckdb_tables() WHERE temporary AND table_name = '${RANGE_VALUED}'`);

describe("an export's valued rows of its range", () => {
  it('are the valued ledger of [start, end) in the files order, held for the work only, even when it fails', async () => {
    const range = { start: T, end: T + 3_600_000 };
    const expected = await rows(
      warehouse,
      `SELECT entry_id, value_usdt FROM ledger_valued WHERE ts >= make_timestamptz(${T * 1000}) AND ts < make_timestamptz(${(T + 3_600_000) * 1000}) ORDER BY ts, entry_id, account`,
    );
    expect(expected.length).toBeGreaterThan(10);
    const read = await withRangeValued(warehouse, range, async () => {
      expect(rangeValuedOf(warehouse)).toEqual(range);
      // As the files read it: as it lies, in the order it was made in.
      return rows(warehouse, `SELECT entry_id, value_usdt FROM ${RANGE_VALUED}`);
    });
    expect(read).toEqual(expected);
    expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '0' }], undefined]);
    await expect(withRangeValued(warehouse, range, () => Promise.reject(new Error('the work failed')))).rejects.toThrow(
      'the work failed',
    );
    expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '0' }], undefined]);
  });

  it('are one range at a time: a second inside the first is refused, the first one kept', async () => {
    const range = { start: T, end: T + 60_000 };
    await withRangeValued(warehouse, range, async () => {
      await expect(withRangeValued(warehouse, { start: T, end: T + 1 }, () => Promise.resolve())).rejects.toThrow(
        'the valued rows of a range are held already: withRangeValued nested',
      );
      expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '1' }], range]);
      // An export told the rows are held reads them only for the range they are of.
      await expect(
        exportFiles(warehouse, { out: join(dir, 'out'), from: T, to: T + 1, formats: ['csv'], rangeValued: true }),
      ).rejects.toThrow("the export's range is not the one whose valued rows are held (withRangeValued)");
    });
  });

  it("give the tax files' rows their values only when every entry is among them, never a sum of part of them", async () => {
    const c = warehouse.connection;
    await c.run("CREATE OR REPLACE TEMP MACRO lp_valuation_fiat() AS CAST('EUR' AS VARCHAR)");
    await c.run(`CREATE TEMP TABLE rows_of AS SELECT * FROM (VALUES
      ('a', 'x', 'BTC', 'USDT', ['x', 'y']), ('a', 'z', 'BTC', NULL, ['z']))
      AS t(account, row_id, cointracking_buy_asset, cointracking_sell_asset, entries)`);
    await c.run(`CREATE TEMP TABLE valued_of AS SELECT account, entry_id, asset, CAST(amount AS DECIMAL(38, 18)) AS amount,
      CAST(value_fiat AS DECIMAL(38, 18)) AS value_fiat FROM (VALUES
      ('a', 'x', 'BTC', '0.01', '950.5'), ('a', 'y', 'USDT', '-1000', '-949.25'), ('a', 'z', 'BTC', '0.02', '1901'))
      AS t(account, entry_id, asset, amount, value_fiat)`);
    const values = () =>
      rows(
        warehouse,
        "SELECT row_id, CAST(net_worth AS VARCHAR) AS worth, CAST(buy_value AS VARCHAR) AS buy, CAST(sell_value AS VARCHAR) AS sell, currency FROM lp_tax_row_values('rows_of', 'valued_of') ORDER BY row_id",
      );
    expect(await values()).toEqual([
      {
        row_id: 'x',
        worth: '950.500000000000000000',
        buy: '950.500000000000000000',
        sell: '949.250000000000000000',
        currency: 'EUR',
      },
      { row_id: 'z', worth: '1901.000000000000000000', buy: '1901.000000000000000000', sell: null, currency: 'EUR' },
    ]);
    // The sent leg of x lies outside the rows given: x gets no values, not the received side's alone.
    await c.run("DELETE FROM valued_of WHERE entry_id = 'y'");
    expect(await values()).toEqual([
      { row_id: 'x', worth: null, buy: null, sell: null, currency: 'EUR' },
      { row_id: 'z', worth: '1901.000000000000000000', buy: '1901.000000000000000000', sell: null, currency: 'EUR' },
    ]);
  });
});
