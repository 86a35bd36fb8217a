import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { readUnreviewed } from '../../src/transform/unreviewed.js';

describe('unreviewed types read from a warehouse an earlier release transformed', () => {
  it('print their DECIMAL totals as this release prints its text ones, without trailing zeros', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(`CREATE TABLE unreviewed_types AS SELECT * FROM (VALUES
        ('a', 'margin_records', 'marginTaxType', 'x', 'USDT', 2, CAST('-12.5' AS DECIMAL(38, 18))),
        ('a', 'margin_records', 'marginTaxType', 'y', 'BTC', 1, CAST('100' AS DECIMAL(38, 18))),
        ('a', 'margin_records', 'marginTaxType', 'z', 'ETH', 1, CAST('0' AS DECIMAL(38, 18)))
      ) AS t(account, source, field, type, asset, records, total)`);
      expect((await readUnreviewed(connection)).map((u) => [u.type, u.total])).toEqual([
        ['x', '-12.5'],
        ['y', '100'],
        ['z', '0'],
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
