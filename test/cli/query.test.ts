import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import { runCliProcess } from '../helpers/cli.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN } from '../transform/fixtures.js';

let db: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempWarehouse();
  db = join(temp.dir, 'w.duckdb');
  await loadRaw(temp.warehouse, GOLDEN);
  await runTransforms(temp.warehouse);
  await temp.warehouse.close();
  dispose = () => import('node:fs/promises').then((fs) => fs.rm(temp.dir, { recursive: true, force: true }));
});
afterAll(() => dispose());

describe('ledgerpipe query', () => {
  it('prints exact results as csv, json and a table', async () => {
    const sql = "SELECT asset, lp_decimal_text(sum(amount)) AS total, count(*) AS n FROM ledger WHERE asset IN ('BTC', 'ETH') GROUP BY asset ORDER BY asset";
    expect((await runCliProcess(['query', sql, '--db', db, '--format', 'csv'])).stdout).toBe('asset,total,n\nBTC,0.16427466,10\nETH,-0.7021,4\n');
    expect(JSON.parse((await runCliProcess(['query', sql, '--db', db, '--format', 'json'])).stdout)).toEqual([
      { asset: 'BTC', total: '0.16427466', n: '10' },
      { asset: 'ETH', total: '-0.7021', n: '4' },
    ]);
    expect((await runCliProcess(['query', sql, '--db', db])).stdout).toBe('asset  total       n\n-----  ----------  --\nBTC    0.16427466  10\nETH    -0.7021     4\n(2 rows)\n');
  });

  it('refuses a write with exit 2 and one line', async () => {
    const result = await runCliProcess(['query', 'DELETE FROM ledger', '--db', db]);
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', 'ledgerpipe: query only reads; this statement (DELETE) would change something — use a SELECT\n']);
    const two = await runCliProcess(['query', 'SELECT 1; SELECT 2', '--db', db]);
    expect([two.status, two.stderr]).toEqual([2, 'ledgerpipe: give one statement to query, not 2\n']);
  });

  it('says so and exits 75 while another process holds the warehouse', async () => {
    const holder = spawn(
      process.execPath,
      ['--input-type=module', '-e', `const { DuckDBInstance } = await import('@duckdb/node-api'); const db = await DuckDBInstance.create(${JSON.stringify(db)}); await db.connect(); console.log('ready'); setTimeout(() => {}, 60000);`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(createInterface({ input: holder.stdout }), 'line');
      const result = await runCliProcess(['query', 'SELECT count(*) FROM ledger', '--db', db]);
      expect(result.status).toBe(75);
      expect(result.stderr).toBe(`ledgerpipe: ${db} is in use by another process (PID ${holder.pid}); wait for it to finish, then try again\n`);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
  });
});
