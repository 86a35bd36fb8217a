import { readFile } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/sim/data/rng.js';
import { decimalText, mulHalfEven, units } from '../helpers/decimal.js';

async function multiply(pairs: readonly (readonly [string, string])[]): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await c.run(await readFile(new URL('../../sql/macros/00_macros.sql', import.meta.url), 'utf8'));
    const values = pairs.map(([a, b], i) => `(${i}, '${a}', '${b}')`).join(', ');
    const reader = await c.runAndReadAll(
      `SELECT lp_decimal_text(lp_mul(lp_amount(a), lp_amount(b))) FROM (VALUES ${values}) AS t(i, a, b) ORDER BY i`,
    );
    return reader.getRows().map((r) => String(r[0]));
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

describe('lp_mul: exact products rounded half-even at the 18th decimal', () => {
  it('rounds ties to even on the whole result, not on its last partial product', async () => {
    const pairs = [
      ['0.000000000000000001', '0.5'], // 0.5e-18: tie, 0 is even
      ['0.000000000000000003', '0.5'], // 1.5e-18: tie, up to 2
      ['-0.000000000000000003', '0.5'], // symmetric
      ['49.012978253558091745', '839.7'], // a tie whose partial product is odd but the whole is even
      ['0.123456789012345678', '95123.45'],
      ['12345678901234567890', '1'],
      ['2.5', '-0.3'],
    ] as const;
    expect(await multiply(pairs)).toEqual([
      '0',
      '0.000000000000000002',
      '-0.000000000000000002',
      '41156.197839512729638276',
      '11743.635696776413483949',
      '12345678901234567890',
      '-0.75',
    ]);
  });

  it('equals BigInt arithmetic on 3000 seeded products of every size', async () => {
    const rng = createRng('lp-mul');
    const digits = (n: number) => Array.from({ length: n }, () => String(rng.int(0, 9))).join('');
    const pairs = Array.from({ length: 3000 }, () => {
      const a = `${rng.chance(0.5) ? '-' : ''}${digits(rng.int(1, 9))}.${digits(rng.int(1, 18))}`;
      const b = `${digits(rng.int(1, 6))}.${digits(rng.int(1, 18))}`;
      return [a, b] as const;
    });
    const expected = pairs.map(([a, b]) => decimalText(mulHalfEven(units(a), units(b))));
    expect(await multiply(pairs)).toEqual(expected);
  });

  it("takes DuckDB's own product only where it is exact: below 10^10, at most 8 and 10 decimals, either way round", async () => {
    const pairs = [
      ['9999999999.99999999', '9999999999.9999999999'], // the largest factors of the fast product: 20 whole digits
      ['9999999999.9999999999', '-9999999999.99999999'], // the other way round, one negative
      ['10000000000', '0.5'], // 10^10 is past DECIMAL(18,8)'s range
      ['0.000000005', '0.0000000001'], // 9 and 10 decimals: half a unit of 10^-18, a tie, rounded to 0 (even)
      ['0.000000015', '0.0000000001'], // 1.5 units: a tie, rounded up to 2 (even)
      ['1.00000001', '3.0000000005'], // 8 and 10 decimals, exact on the fast path
      ['1.000000015', '3.0000000005'], // 9 and 10 decimals: ...0000075 units, a tie, rounded up to ...08 (even)
      ['-0.00000001', '-0.0000000001'],
      ['123.45', '0'],
      ['0', '-7.5'],
    ] as const;
    const expected = pairs.map(([a, b]) => decimalText(mulHalfEven(units(a), units(b))));
    expect(await multiply(pairs)).toEqual(expected);
    const rng = createRng('lp-mul-fast');
    const digits = (n: number) => Array.from({ length: n }, () => String(rng.int(0, 9))).join('');
    const seeded = Array.from({ length: 3000 }, () => {
      const narrow = () =>
        `${rng.chance(0.5) ? '-' : ''}${digits(rng.int(1, 10))}.${digits(rng.int(1, rng.chance(0.5) ? 8 : 11))}`;
      return [narrow(), narrow()] as const;
    });
    expect(await multiply(seeded)).toEqual(seeded.map(([a, b]) => decimalText(mulHalfEven(units(a), units(b)))));
    // No price (an empty amount reads as NULL) is no value.
    expect(
      await multiply([
        ['', '2'],
        ['2.5', ''],
      ]),
    ).toEqual(['null', 'null']);
  });
});
