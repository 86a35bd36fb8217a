import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec, text } from '../../src/gains/decimal.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

// The gains engine appends amounts as units of 10^-18 (sql/gains/00_slices.sql): lp_units_to_decimal
// (sql/macros/00_macros.sql) must turn each back into the DECIMAL(38, 18) it was, over all of DECIMAL(38, 18): signs,
// the largest and smallest values, and fractions with leading zeros.
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

describe('units of 10^-18 from the gains engine', () => {
  it('turns units of 10^-18 back into the decimal they were, digit for digit', async () => {
    const values = AMOUNTS.map((a) => `('${a}', CAST('${String(dec(a))}' AS HUGEINT))`).join(', ');
    const read = await rows(
      warehouse,
      `SELECT a, CAST(lp_units_to_decimal(units) AS VARCHAR) AS back FROM (VALUES ${values}) AS t(a, units)`,
    );
    // DuckDB writes all 18 places of a DECIMAL(38, 18), which the engine's text trims.
    expect(read.map((r) => [r['a'], text(dec(String(r['back'])))])).toEqual(AMOUNTS.map((a) => [a, text(dec(a))]));
    expect(read.map((r) => String(r['back']).split('.')[1]?.length)).toEqual(AMOUNTS.map(() => 18));
    expect(await rows(warehouse, 'SELECT lp_units_to_decimal(NULL) AS n')).toEqual([{ n: null }]);
  });
});
