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
    const reader = await c.runAndReadAll(`SELECT lp_decimal_text(lp_mul(lp_amount(a), lp_amount(b))) FROM (VALUES ${values}) AS t(i, a, b) ORDER BY i`);
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
    expect(await multiply(pairs)).toEqual(['0', '0.000000000000000002', '-0.000000000000000002', '41156.197839512729638276', '11743.635696776413483949', '12345678901234567890', '-0.75']);
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
});
