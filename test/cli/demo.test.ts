import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoQueries } from '../../src/cli/commands/demo.js';
import { runCliProcess, type CliResult } from '../helpers/cli.js';

let dir: string;
let demo: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-demo-'));
  // The demo at the simulator's rate limits scaled up, so the test does not wait out real seconds.
  demo = await runCliProcess(['demo', '--out', dir, '--rate-scale', '200', '--quiet']);
}, 180_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ledgerpipe demo', () => {
  it('writes every format: the tables as CSV and Parquet, and the files for Koinly and CoinTracking', async () => {
    expect([demo.status, demo.stderr]).toEqual([0, '']);
    expect((await readdir(join(dir, 'exports'))).sort()).toEqual(
      ['.ledgerpipe-export.json', 'cointracking.csv', 'futures_fills.csv', 'futures_fills.parquet', 'koinly.csv', 'ledger.csv', 'ledger.parquet', 'manifest.json', 'margin_records.csv', 'margin_records.parquet', 'report.html', 'withdrawals.csv', 'withdrawals.parquet', 'year_summary.csv', 'year_summary.parquet'],
    );
    // The simulator's undocumented types are listed for review in the summary.
    expect(demo.stdout).toContain('types not in the type catalog, booked as unreviewed');
  });

  it('suggests queries that run on what it wrote', async () => {
    const queries = demoQueries(join(dir, 'ledgerpipe.duckdb'));
    expect(queries).toHaveLength(5);
    for (const q of queries) {
      const sql = /"(.*)"$/.exec(q)?.[1] as string;
      const result = await runCliProcess(['query', '--db', join(dir, 'ledgerpipe.duckdb'), '--format', 'csv', sql]);
      expect([result.status, result.stderr], sql).toEqual([0, '']);
      expect(result.stdout.split('\n').length, sql).toBeGreaterThan(3);
    }
  });
});
