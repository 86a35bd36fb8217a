import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryCsv, runCliHere, runCliProcess, type CliResult } from '../helpers/cli.js';
import { startReplay, type Replay } from '../helpers/replay-server.js';

/**
 * HMRC's worked example of the 30-day rule across 5 April (CRYPTO22253: gains £165 in one tax year, £20 in the
 * next), a year later, as spot tax records of an account (the records' own shape:
 * https://www.bitget.com/api-doc/common/tax/Get-Spot-Account-Record), every trade for USDT at £1 a USDT, through
 * `run year-end --tax-year 2025-26 --cost-basis uk`: the UK's tax year, in the UK's clock, by default.
 */
const at = (iso: string): number => Date.parse(iso);
let id = 1000;
let usdt = 0;
let token = 0;
const spot = (ts: string, coin: string, type: string, amount: number, order: string) => {
  const balance = coin === 'USDT' ? (usdt += amount) : (token += amount);
  return {
    id: String(++id),
    coin,
    spotTaxType: type,
    amount: String(amount),
    fee: '0',
    balance: String(balance),
    bizOrderId: order,
    ts: String(at(ts)),
  };
};
const trade = (ts: string, side: 'Buy' | 'Sell', quantity: number, pounds: number) => {
  const order = String(++id * 7);
  return side === 'Buy'
    ? [spot(ts, 'C', 'Buy', quantity, order), spot(ts, 'USDT', 'Buy', -pounds, order)]
    : [spot(ts, 'USDT', 'Sell', pounds, order), spot(ts, 'C', 'Sell', -quantity, order)];
};
const DEPOSIT_AT = '2024-01-05T09:00:00Z';
const SPOT = [
  spot(DEPOSIT_AT, 'USDT', 'Deposit', 5000, '1'),
  // The pool: 2,000 token C for £1,000, in an earlier year.
  ...trade('2024-01-10T12:00:00Z', 'Buy', 2000, 1000),
  ...trade('2025-03-31T10:00:00Z', 'Sell', 1000, 400),
  ...trade('2025-04-20T10:00:00Z', 'Sell', 500, 150),
  ...trade('2025-04-21T10:00:00Z', 'Buy', 700, 175),
  ...trade('2025-04-28T10:00:00Z', 'Buy', 500, 100),
  ...trade('2025-05-01T10:00:00Z', 'Buy', 500, 150),
];
// The deposit's own record (https://www.bitget.com/api-doc/spot/account/Get-Deposit-Record), which the ledger books.
const DEPOSIT = {
  orderId: '77',
  tradeId: '0xabc',
  coin: 'USDT',
  type: 'deposit',
  size: '5000',
  status: 'success',
  toAddress: 'TX1',
  dest: 'on_chain',
  chain: 'trc20',
  fromAddress: 'TX0',
  cTime: String(at(DEPOSIT_AT)),
  uTime: String(at(DEPOSIT_AT)),
};

let dir: string;
let replay: Replay;
let run: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-tax-year-'));
  replay = await startReplay({
    k1: {
      account: 'default',
      files: [],
      registeredAt: at('2024-01-02T08:00:00Z'),
      records: [
        { prefix: 'spot-record--', rows: SPOT },
        { prefix: 'deposit-records--', rows: [DEPOSIT] },
      ],
    },
  });
  const env = {
    ...process.env,
    LEDGERPIPE_API_KEY: 'k1',
    LEDGERPIPE_API_SECRET: 's',
    LEDGERPIPE_API_PASSPHRASE: 'p',
    LEDGERPIPE_BASE_URL: replay.baseUrl,
  };
  await writeFile(join(dir, 'gbp.csv'), 'time,currency,rate\n2024-01-01,GBP,1\n');
  run = await runCliHere(
    [
      'run',
      'year-end',
      '--tax-year',
      '2025-26',
      '--cost-basis',
      'uk',
      '--fiat',
      'GBP',
      '--fiat-rates',
      join(dir, 'gbp.csv'),
      '--db',
      join(dir, 'w.duckdb'),
      '--format',
      'csv,report',
      '--rate-scale',
      '1000',
      '--quiet',
      '--out',
      join(dir, 'exports', 'given'),
    ],
    { env },
  );
}, 120_000);
afterAll(async () => {
  await replay.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--tax-year with the UK rules', () => {
  it("reads the UK tax year in the UK clock, and files each disposal of HMRC's example in its own tax year", async () => {
    expect([run.status, run.stderr]).toEqual([0, '']);
    const query = async (sql: string) => (await queryCsv(join(dir, 'w.duckdb'), sql)).trimEnd().split('\n').slice(1);
    expect(await query('SELECT time_zone, tax_year_start, cost_basis FROM settings')).toEqual([
      'Europe/London,04-06,uk',
    ]);
    // 6 April 2025 to 5 April 2026, London time (BST: 23:00 UTC the day before).
    const manifest = JSON.parse(await readFile(join(dir, 'exports', 'given', 'manifest.json'), 'utf8')) as {
      range: { from: string; to: string; time_zone: string };
    };
    expect(manifest.range).toEqual({
      from: '2025-04-05T23:00:00.000Z',
      to: '2026-04-05T23:00:00.000Z',
      time_zone: 'Europe/London',
    });
    // The warehouse's gains of both tax years: £165 in 2024-25, £20 in 2025-26, as HMRC's example has them.
    expect(
      await query(
        "SELECT tax_year, lp_decimal_text(sum(gain)) FROM disposals WHERE asset = 'C' GROUP BY ALL ORDER BY 1",
      ),
    ).toEqual(['2024-25,165', '2025-26,20']);
    expect(await query("SELECT tax_year, asset, gain FROM gains_summary WHERE asset = 'C' ORDER BY 1")).toEqual([
      '2024-25,C,165',
      '2025-26,C,20',
    ]);
    // status names the ledger's movements by the same tax years.
    const status = await runCliHere(['status', '--db', join(dir, 'w.duckdb')]);
    expect(
      status.stdout
        .split('\n')
        .filter((l) => l.includes('ledger movements:'))
        .map((l) => l.trim()),
    ).toEqual([
      '2023-24 ledger movements: C 2000, USDT 4000',
      '2024-25 ledger movements: C -1000, USDT 400',
      '2025-26 ledger movements: C 1200, USDT -275',
    ]);
    // The tax year's files hold its disposal alone: 20 April 2025, matched by the 30-day rule.
    const disposals = (await readFile(join(dir, 'exports', 'given', 'disposals.csv'), 'utf8')).trimEnd().split('\n');
    const header = (disposals[0] as string).split(',');
    const cells = disposals
      .slice(1)
      .map((l) => l.split(','))
      .filter((c) => c[header.indexOf('asset')] === 'C');
    expect(
      cells.map((c) => [
        c[header.indexOf('disposed_at')],
        c[header.indexOf('quantity')],
        c[header.indexOf('cost')],
        c[header.indexOf('match_rule')],
        c[header.indexOf('tax_year')],
      ]),
    ).toEqual([
      ['2025-04-20T10:00:00.000Z', '200', '40', 'thirty_day', '2025-26'],
      ['2025-04-20T10:00:00.000Z', '300', '90', 'thirty_day', '2025-26'],
    ]);
    const page = await readFile(join(dir, 'exports', 'given', 'report.html'), 'utf8');
    expect(page).toContain('<b id="period">tax year 2025-26: 6 April 2025 to 5 April 2026</b>');
  });

  it("names the tax year's folder, and refuses one that has not begun", async () => {
    const env = {
      ...process.env,
      LEDGERPIPE_API_KEY: 'k1',
      LEDGERPIPE_API_SECRET: 's',
      LEDGERPIPE_API_PASSPHRASE: 'p',
    };
    // In the warehouse's folder, as a user types it: the files go to ./exports/2025-26/.
    const exported = await runCliProcess(
      ['export', '--tax-year', '2025-26', '--db', 'w.duckdb', '--format', 'csv', '--quiet'],
      { env, cwd: dir },
    );
    expect([exported.status, exported.stderr]).toEqual([0, '']);
    expect(await readdir(join(dir, 'exports'))).toEqual(['2025-26', 'given']);
    const year = new Date().getUTCFullYear();
    const name = (y: number) => `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
    const refused = await runCliHere(['export', '--tax-year', name(year + 1), '--db', join(dir, 'w.duckdb')], { env });
    expect([refused.status, refused.stderr]).toEqual([
      2,
      `ledgerpipe: --tax-year ${name(year + 1)}: it has not begun (it starts ${year + 1}-04-05T23:00:00.000Z); the last complete tax year is ${name(year - 1)}\n`,
    ]);
  });
});
