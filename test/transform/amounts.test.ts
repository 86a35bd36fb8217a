import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { createMacros } from '../../src/warehouse/macros.js';

/** lp_amount of each text, as DuckDB's exact text of the DECIMAL(38,18) (null for NULL). */
async function amounts(texts: readonly string[]): Promise<(string | null)[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await createMacros(connection);
    const out: (string | null)[] = [];
    for (const text of texts) {
      const reader = await connection.runAndReadAll('SELECT CAST(lp_amount($t) AS VARCHAR) AS a', { t: text });
      out.push(reader.getRowObjectsJS()[0]?.['a'] as string | null);
    }
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('lp_amount', () => {
  it('reads amounts on both sides of the fast path (10 whole digits, 8 decimals) exactly', async () => {
    expect(
      await amounts([
        '1',
        '-1',
        '+1.5',
        '',
        '0.00000001',
        '-0.000000001',
        '1234567890.12345678',
        '-1234567890.12345678',
        '+1234567890.123456789',
        '12345678901.5',
        '-12345678901.12345678',
        '99999999999999999999.999999999999999999',
        '-0.10',
        '1.000000000000000000000',
        '0.000000000000000001',
      ]),
    ).toEqual([
      '1.000000000000000000',
      '-1.000000000000000000',
      '1.500000000000000000',
      null,
      '0.000000010000000000',
      '-0.000000001000000000',
      '1234567890.123456780000000000',
      '-1234567890.123456780000000000',
      '1234567890.123456789000000000',
      '12345678901.500000000000000000',
      '-12345678901.123456780000000000',
      '99999999999999999999.999999999999999999',
      '-0.100000000000000000',
      '1.000000000000000000',
      '0.000000000000000001',
    ]);
  });

  it('refuses more than 18 significant decimals rather than round', async () => {
    await expect(amounts(['0.0000000000000000001'])).rejects.toThrow(
      'amount 0.0000000000000000001 has more than 18 decimals',
    );
  });
});

/** lp_total over each group of amount texts (read with lp_amount), in order. */
async function totals(groups: readonly (readonly string[])[]): Promise<(string | null)[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await createMacros(connection);
    const values = groups.flatMap((g, i) => g.map((text) => `(${i}, '${text}')`));
    const reader = await connection.runAndReadAll(
      `SELECT g, lp_total(lp_amount(t)) AS total FROM (VALUES ${values.join(', ')}) AS v(g, t) GROUP BY g ORDER BY g`,
    );
    return reader.getRowObjectsJS().map((r) => r['total'] as string | null);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('lp_total', () => {
  const max = '99999999999999999999.999999999999999999';
  it('adds amounts past DECIMAL(38,18) exactly, large and small together, carrying decimals across the point and across signs', async () => {
    expect(
      await totals([
        [max, max],
        [`-${max}`, `-${max}`, `-${max}`],
        [max, `-${max}`],
        ['0.6', '0.6'],
        ['-0.6', '-0.6'],
        ['5', '-0.25'],
        ['-5', '0.25'],
        ['0.25', '-5'],
        ['1.5', '-1.5', '0.000000000000000001'],
        ['12.5'],
        [max, '0.5', '-1.75'],
        ['10000000000', '-0.000000000000000001'],
        ['-10000000000.5', '9999999999.25', '-0.25'],
        [''],
      ]),
    ).toEqual([
      '199999999999999999999.999999999999999998',
      '-299999999999999999999.999999999999999997',
      '0',
      '1.2',
      '-1.2',
      '4.75',
      '-4.75',
      '-4.75',
      '0.000000000000000001',
      '12.5',
      '99999999999999999998.749999999999999999',
      '9999999999.999999999999999999',
      '-1.5',
      null,
    ]);
  });

  it('is what sum gives where sum does not overflow', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await createMacros(connection);
      // 20,000 amounts of mixed signs, on both sides of 10^10 (where lp_total switches ways of adding): the exact
      // text of lp_total equals DuckDB's own sum.
      const reader = await connection.runAndReadAll(
        `WITH v AS (
           SELECT lp_amount(CAST(((i * 7919) % 40001 - 20000) * 1000003 AS VARCHAR) || '.' || lpad(CAST((i * 104729 * 1000003) % 1000000000000000000 AS VARCHAR), 18, '0')) AS x
           FROM range(20000) t(i))
         SELECT lp_total(x) AS total, lp_decimal_text(sum(x)) AS reference FROM v`,
      );
      const [row] = reader.getRowObjectsJS();
      expect(row?.['total']).toBe(row?.['reference']);
      expect(row?.['total']).not.toBe('0');
      const split = await connection.runAndReadAll(
        `SELECT count(*) FILTER (WHERE abs(x) >= 10000000000) AS large, count(*) FILTER (WHERE abs(x) < 10000000000) AS small
         FROM (SELECT CAST(((i * 7919) % 40001 - 20000) * 1000003 AS DECIMAL(38, 18)) AS x FROM range(20000) t(i))`,
      );
      expect(split.getRowObjectsJS()[0]).toEqual({ large: 10001n, small: 9999n });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
