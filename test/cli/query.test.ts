import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import { runQuery } from '../../src/cli/query-output.js';
import { runCliHere, runCliProcess } from '../helpers/cli.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN } from '../transform/fixtures.js';

let db: string;
let dir: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempWarehouse();
  dir = temp.dir;
  db = join(temp.dir, 'w.duckdb');
  await loadRaw(temp.warehouse, GOLDEN);
  await runTransforms(temp.warehouse);
  await temp.warehouse.close();
  dispose = () => import('node:fs/promises').then((fs) => fs.rm(temp.dir, { recursive: true, force: true }));
});
afterAll(() => dispose());

describe('ledgerpipe query', () => {
  it('prints exact results as csv, json and a table', async () => {
    const sql =
      "SELECT asset, lp_decimal_text(sum(amount)) AS total, count(*) AS n FROM ledger WHERE asset IN ('BTC', 'ETH') GROUP BY asset ORDER BY asset";
    expect((await runCliHere(['query', sql, '--db', db, '--format', 'csv'])).stdout).toBe(
      'asset,total,n\nBTC,0.16427466,10\nETH,-0.7021,4\n',
    );
    expect(JSON.parse((await runCliHere(['query', sql, '--db', db, '--format', 'json'])).stdout)).toEqual([
      { asset: 'BTC', total: '0.16427466', n: '10' },
      { asset: 'ETH', total: '-0.7021', n: '4' },
    ]);
    expect((await runCliHere(['query', sql, '--db', db])).stdout).toBe(
      'asset  total       n\n-----  ----------  --\nBTC    0.16427466  10\nETH    -0.7021     4\n(2 rows)\n',
    );
  });

  it('prints decimals as the CSV files write them: no trailing zeros, no minus on zero', async () => {
    const lines: string[] = [];
    const sql =
      "SELECT sum(amount) AS total, CAST(0 AS DECIMAL(38, 18)) AS zero, CAST(-0.50 AS DECIMAL(10, 3)) AS half, CAST(120 AS DECIMAL(10, 2)) AS whole FROM ledger WHERE asset = 'ETH'";
    await runQuery(db, sql, 'csv', (line) => lines.push(line));
    expect(lines).toEqual(['total,zero,half,whole', '-0.7021,0,-0.5,120']);
  });

  it('streams CSV chunk by chunk as DuckDB hands it over, quoting as RFC 4180 asks', async () => {
    const writes: string[] = [];
    await runQuery(
      db,
      `SELECT i, 'a,"b"' || i AS t, CASE WHEN i % 1000 = 0 THEN 'line' || chr(10) || 'break' END AS n FROM range(5000) AS r(i)`,
      'csv',
      (line) => writes.push(line),
    );
    // The header, then one write per chunk of 2,048 rows (2,048 + 2,048 + 904), each line break in a value one more.
    expect(writes.map((w) => w.split('\n').length)).toEqual([1, 2048 + 3, 2048 + 2, 904]);
    const expected = [
      'i,t,n',
      ...Array.from({ length: 5000 }, (_, i) => `${i},"a,""b""${i}",${i % 1000 === 0 ? '"line\nbreak"' : ''}`),
    ];
    expect(writes.join('\n')).toBe(expected.join('\n'));
  });

  it('refuses a write with exit 2 and one line', async () => {
    const result = await runCliHere(['query', 'DELETE FROM ledger', '--db', db]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      '',
      'ledgerpipe: query only reads; this statement (DELETE) would change something — use a SELECT\n',
    ]);
    const two = await runCliHere(['query', 'SELECT 1; SELECT 2', '--db', db]);
    expect([two.status, two.stderr]).toEqual([2, 'ledgerpipe: give one statement to query, not 2\n']);
  });

  it('reaches no file but the warehouse: no COPY, no EXPLAIN ANALYZE of one, no other file read, no extension, no SET', async () => {
    const { readFile, stat } = await import('node:fs/promises');
    const before = await readFile(db);
    const target = join(dir, 'written.csv');
    const other = join(dir, 'other.csv');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(other, 'a,b\n1,2\n');
    const cases: [string, string][] = [
      [
        `EXPLAIN ANALYZE COPY (SELECT 'x') TO '${db}' (FORMAT csv)`,
        'query only reads; this statement (COPY) would change something — use a SELECT',
      ],
      // A COPY to a file that does not exist yet is stopped when it binds, by the locked-down file access.
      [
        `/* hi */ explain analyze COPY (SELECT 'x') TO '${target}' (FORMAT csv)`,
        `the query cannot run: Permission Error: Cannot access file "${target}" - file system operations are disabled by configuration`,
      ],
      [
        `COPY (SELECT 'x') TO '${target}' (FORMAT csv)`,
        `the query cannot run: Permission Error: Cannot access file "${target}" - file system operations are disabled by configuration`,
      ],
      [
        "SELECT * FROM read_text('/etc/passwd')",
        'the query cannot run: Permission Error: Cannot access file "/etc/passwd" - file system operations are disabled by configuration',
      ],
      [
        `SELECT * FROM read_csv('${other}')`,
        `the query cannot run: Permission Error: Cannot access file "${other}" - file system operations are disabled by configuration`,
      ],
      ['INSTALL httpfs', 'query only reads; this statement (LOAD) would change something — use a SELECT'],
      [
        'SET enable_external_access = true',
        'query only reads; this statement (SET) would change something — use a SELECT',
      ],
      [
        `ATTACH '${join(dir, 'other.duckdb')}' AS o`,
        'query only reads; this statement (ATTACH) would change something — use a SELECT',
      ],
    ];
    for (const [sql, line] of cases) {
      const result = await runCliHere(['query', sql, '--db', db]);
      expect([result.status, result.stdout, result.stderr], sql).toEqual([2, '', `ledgerpipe: ${line}\n`]);
    }
    expect((await readFile(db)).equals(before)).toBe(true);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
    // EXPLAIN of a SELECT, DESCRIBE and SHOW still answer.
    for (const sql of [
      'EXPLAIN SELECT count(*) FROM ledger',
      'EXPLAIN ANALYZE SELECT count(*) FROM ledger',
      'DESCRIBE ledger',
      'SHOW TABLES',
    ]) {
      const result = await runCliHere(['query', sql, '--db', db, '--format', 'csv']);
      expect([result.status, result.stderr], sql).toEqual([0, '']);
    }
  });

  it('says so and exits 75 while another process holds the warehouse', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { DuckDBInstance } = await import('@duckdb/node-api'); const db = await DuckDBInstance.create(${JSON.stringify(db)}); await db.connect(); console.log('ready'); setTimeout(() => {}, 60000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(createInterface({ input: holder.stdout }), 'line');
      const result = await runCliProcess(['query', 'SELECT count(*) FROM ledger', '--db', db]);
      expect(result.status).toBe(75);
      expect(result.stderr).toBe(
        `ledgerpipe: ${db} is in use by another process (PID ${holder.pid}); wait for it to finish, then try again\n`,
      );
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
  });
});
