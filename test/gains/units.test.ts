import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec, text } from '../../src/gains/decimal.js';
import { readSqlFile, runSqlFile } from '../../src/warehouse/sql-files.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

// The gains engine reads and appends amounts as units of 10^-18 (sql/gains/00_slices.sql): lp_units_of and lp_units18
// must be exact inverses over all of DECIMAL(38, 18), signs, the largest and smallest values, and fractions with
// leading zeros included.
let warehouse: Warehouse;
let dispose: () => Promise<void>;
beforeEach(async () => ({ warehouse, dispose } = await tempWarehouse()));
afterEach(async () => dispose());

const AMOUNTS = [
  '0',
  '0.000000000000000001',
  '-0.000000000000000001',
  '1',
  '-1',
  '12.5',
  '-12.5',
  '0.1',
  '123456789.000000000000000007',
  '-0.05',
  '99999999999999999999.999999999999999999',
  '-99999999999999999999.999999999999999999',
  '42.000000000000000001',
  '-42.100000000000000009',
];

describe('units of 10^-18 in the gains engine', () => {
  it('reads every DECIMAL(38, 18) as the Dec of the engine and turns it back, digit for digit', async () => {
    await runSqlFile(warehouse.connection, await readSqlFile('gains/00_slices.sql'));
    const values = AMOUNTS.map((a) => `(${JSON.stringify(a).replace(/"/g, "'")})`).join(', ');
    const read = await rows(
      warehouse,
      `SELECT a, CAST(lp_units_of(CAST(a AS DECIMAL(38, 18))) AS VARCHAR) AS units,
              CAST(lp_units18(lp_units_of(CAST(a AS DECIMAL(38, 18)))) AS VARCHAR) AS back
       FROM (VALUES ${values}) AS t(a)`,
    );
    expect(read.map((r) => [r['a'], r['units']])).toEqual(AMOUNTS.map((a) => [a, String(dec(a))]));
    // Back as the same DECIMAL(38, 18): DuckDB writes all 18 places, which the engine's text trims.
    expect(read.map((r) => text(dec(String(r['back']))))).toEqual(AMOUNTS.map((a) => text(dec(a))));
    expect(await rows(warehouse, 'SELECT lp_units18(NULL) AS n, lp_units_of(NULL) AS m')).toEqual([{ n: null, m: null }]);
  });
});
