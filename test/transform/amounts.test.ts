import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { readSqlFolder } from '../../src/warehouse/sql-files.js';

/** lp_amount of each text, as DuckDB's exact text of the DECIMAL(38,18) (null for NULL). */
async function amounts(texts: readonly string[]): Promise<(string | null)[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const macros = (await readSqlFolder('staging')).find((f) => f.name === 'staging/00_macros.sql');
    await connection.run(macros?.text ?? '');
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
        '1', '-1', '+1.5', '', '0.00000001', '-0.000000001',
        '1234567890.12345678', '-1234567890.12345678', '+1234567890.123456789',
        '12345678901.5', '-12345678901.12345678', '99999999999999999999.999999999999999999',
        '-0.10', '1.000000000000000000000', '0.000000000000000001',
      ]),
    ).toEqual([
      '1.000000000000000000', '-1.000000000000000000', '1.500000000000000000', null, '0.000000010000000000', '-0.000000001000000000',
      '1234567890.123456780000000000', '-1234567890.123456780000000000', '1234567890.123456789000000000',
      '12345678901.500000000000000000', '-12345678901.123456780000000000', '99999999999999999999.999999999999999999',
      '-0.100000000000000000', '1.000000000000000000', '0.000000000000000001',
    ]);
  });

  it('refuses more than 18 significant decimals rather than round', async () => {
    await expect(amounts(['0.0000000000000000001'])).rejects.toThrow('amount 0.0000000000000000001 has more than 18 decimals');
  });
});
