import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoQueries } from '../../src/cli/commands/demo.js';
import { queryCsv, runCliHere, runCliProcess, type CliResult } from '../helpers/cli.js';

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
    const tables = [
      'deposits',
      'futures_fills',
      'ledger',
      'ledger_valued',
      'margin_records',
      'withdrawals',
      'year_summary',
    ];
    // The year's files in the year's own folder (docs/files.md, "A folder per period").
    const year = String(new Date().getUTCFullYear() - 1);
    expect(await readdir(join(dir, 'exports'))).toEqual([year]);
    expect((await readdir(join(dir, 'exports', year))).sort()).toEqual(
      [
        '.ledgerpipe-export.json',
        'cointracking.csv',
        'form8949.csv',
        'koinly.csv',
        'manifest.json',
        'report.html',
        ...[...tables, 'disposals'].flatMap((t) => [`${t}.csv`, `${t}.parquet`]),
      ].sort(),
    );
  });

  it('says what ran, what to review, where the files are, and the command that does the same on an account, and little else', () => {
    const lines = demo.stdout.trimEnd().split('\n');
    const exportsDir = join(dir, 'exports', String(new Date().getUTCFullYear() - 1));
    expect(lines[0]).toMatch(
      /^year-end \d{4} of a simulated account: [\d,]+ records in [\d,]+ requests, [\d,]+ ledger rows, valued in USDT and EUR$/,
    );
    // The retail account was opened years before the year, and the cost basis reads back to it (docs/history.md).
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^cost basis \(fifo, in EUR\): history read back to the account's opening, \d{4}-\d{2}-\d{2}: every disposal of \d{4} has its acquisition$/,
      ),
    );
    // A retail account of documented types, every movement priced: nothing to review.
    expect(lines).not.toContain('to review:');
    expect(lines).toContain(
      `files in ${exportsDir}/: margin_records.csv, margin_records.parquet, futures_fills.csv, futures_fills.parquet, withdrawals.csv, withdrawals.parquet, deposits.csv, deposits.parquet, ledger.csv, ledger.parquet, ledger_valued.csv, ledger_valued.parquet, year_summary.csv, year_summary.parquet, disposals.csv, disposals.parquet, form8949.csv, koinly.csv, cointracking.csv, report.html`,
    );
    const year = /^year-end (\d{4})/.exec(lines[0] ?? '')?.[1];
    expect(lines.slice(-4)).toEqual([
      'the same on your own account (a read-only API key; README, "Using it with your account"):',
      '  export LEDGERPIPE_API_KEY=... LEDGERPIPE_API_SECRET=... LEDGERPIPE_API_PASSPHRASE=...',
      `  npx ledgerpipe run year-end --year ${year} --fiat EUR`,
      '(--verbose prints the whole summary: every stream, table, holding and file)',
    ]);
    // A screenful, not the run's whole summary.
    expect(lines.length).toBeLessThan(25);
  });

  it("gives every disposal of the year its acquisition, read back to the account's opening, and adds them up in gains_summary and form8949.csv", async () => {
    // What `ledgerpipe query --format csv` prints, read in this process (the last test starts the command itself).
    const query = async (sql: string) =>
      (await queryCsv(join(dir, 'ledgerpipe.duckdb'), sql)).trimEnd().split('\n').slice(1);
    const year = new Date().getUTCFullYear() - 1;
    const ofYear = `disposed_at >= '${year}-01-01' AND disposed_at < '${year + 1}-01-01'`;
    // The history read back to the opening gives every disposal of the year its acquisition (docs/history.md): no
    // slice unmatched, none at zero cost, none unvalued; fifo in EUR, the demo's.
    expect(
      await query(
        `SELECT count(*) FILTER (WHERE match_rule LIKE '%unmatched'), count(*) FILTER (WHERE cost = 0), count(*) FILTER (WHERE flags LIKE '%unvalued%'), min(cost_basis), min(unit) FROM disposals WHERE ${ofYear}`,
      ),
    ).toEqual(['0,0,0,fifo,EUR']);
    const [disposals, gain] = (
      await query(`SELECT count(*), sum(gain) FROM disposals WHERE proceeds IS NOT NULL AND ${ofYear}`)
    )[0]!.split(',');
    expect(Number(disposals)).toBeGreaterThan(500);
    expect(await query(`SELECT sum(disposals), sum(gain) FROM gains_summary WHERE tax_year = '${year}'`)).toEqual([
      `${disposals},${gain}`,
    ]);
    const form = (await readFile(join(dir, 'exports', String(year), 'form8949.csv'), 'utf8')).trimEnd().split('\n');
    expect(form[0]).toBe(
      'part,description,date_acquired,date_sold,proceeds,cost_basis,adjustment_code,adjustment_amount,gain_or_loss,unit,account,flags',
    );
    expect(form.length - 1).toBe(Number(disposals));
  });

  it('suggests queries that run on what it wrote', async () => {
    const queries = demoQueries(join(dir, 'ledgerpipe.duckdb'));
    expect(queries).toHaveLength(5);
    for (const q of queries) {
      const sql = /"(.*)"$/.exec(q)?.[1] as string;
      const result = await runCliHere(['query', '--db', join(dir, 'ledgerpipe.duckdb'), '--format', 'csv', sql]);
      expect([result.status, result.stderr], sql).toEqual([0, '']);
      expect(result.stdout.split('\n').length, sql).toBeGreaterThan(3);
    }
  });
});
