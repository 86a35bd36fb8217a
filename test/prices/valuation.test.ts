import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARKETS, simClose } from '../../src/sim/endpoints/candles.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliProcess, simEnv } from '../helpers/cli.js';
import { decimalText, mulHalfEven, units } from '../helpers/decimal.js';

const HOUR = 3_600_000;
const SEED = 'values';
// No BGBUSDT: BGB is priced through BGBBTC times BTCUSDT. EUR (of fiat deposits) has no pair at all.
const MARKETS = DEFAULT_MARKETS.filter((m) => m.symbol !== 'BGBUSDT');
const close = (symbol: string, hour: number) => simClose(SEED, MARKETS.find((m) => m.symbol === symbol)!, hour);

let dir: string;
let sim: Simulator;
let db: string;
let out: string;
let firstRun: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-values-'));
  db = join(dir, 'w.duckdb');
  out = join(dir, 'out');
  sim = await startSimulator({ seed: SEED, from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 2, 1), records: 300, rateScale: 100, pendingMs: 0, markets: MARKETS });
  const env = simEnv(sim.credentials);
  const run = await runCliProcess(['run', 'year-end', '--from', '2025-01-01', '--to', '2025-03-01', '--base-url', sim.baseUrl, '--db', db, '--out', out, '--rate-scale', '100', '--fiat', 'EUR'], { env });
  expect(run.status, run.stderr).toBe(0);
  firstRun = run.stdout;
}, 120_000);
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function read(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The ledger's rows with their tax class, read back as text: what the test values by itself. */
async function ledgerRows() {
  const rows = await read(`SELECT account, asset, CAST(amount AS VARCHAR) AS amount, epoch_ms(ts) AS ms, m.tax_class
    FROM ledger JOIN category_meaning AS m USING (category) ORDER BY entry_id`);
  return rows.map((r) => ({ account: String(r['account']), asset: String(r['asset']), amount: String(r['amount']), ms: Number(r['ms']), taxClass: String(r['tax_class']) }));
}

/** The test's own USDT price of an asset at a time, from the candles the simulator serves; undefined: none. */
function priceAt(asset: string, ms: number): bigint | undefined {
  const hour = Math.floor(ms / HOUR) * HOUR;
  if (asset === 'USDT') return units('1');
  if (asset === 'BGB') return mulHalfEven(units(close('BGBBTC', hour)), units(close('BTCUSDT', hour)));
  if (MARKETS.some((m) => m.symbol === `${asset}USDT`)) return units(close(`${asset}USDT`, hour));
  return undefined;
}

function csvRows(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => line.split(','));
}

describe('values: hourly candles to exact values in USDT and a fiat', () => {
  it('prices each asset by its stated route, and lists the one with no pair', () => {
    expect(firstRun).toContain('  BGB      BGBBTC x BTCUSDT\n');
    expect(firstRun).toContain('  USDC     USDCUSDT\n');
    // EUR is the fiat here: worth its amount in EUR, and without a USDT price, so listed as such.
    expect(firstRun).toMatch(/movements without a value[^\n]*\n {2}EUR: \d+ without a USDT price\n/);
  });

  it('gives every ledger row the close of its hour times its amount, exact, in ledger_valued', async () => {
    const valued = await read(`SELECT entry_id, asset, CAST(amount AS VARCHAR) AS amount, epoch_ms(ts) AS ms, CAST(price_usdt AS VARCHAR) AS price, CAST(value_usdt AS VARCHAR) AS value FROM ledger_valued ORDER BY entry_id`);
    expect(valued.length).toBeGreaterThan(500);
    let priced = 0;
    for (const r of valued) {
      const price = priceAt(String(r['asset']), Number(r['ms']));
      const expected = price === undefined ? [null, null] : [decimalText(price), decimalText(mulHalfEven(units(String(r['amount'])), price))];
      const got = [r['price'] === null ? null : decimalText(units(String(r['price']))), r['value'] === null ? null : decimalText(units(String(r['value'])))];
      expect([r['entry_id'], ...got]).toEqual([r['entry_id'], ...expected]);
      if (price !== undefined) priced++;
    }
    // The stablecoin rule: USDT is 1; USDC is its own market's price, never assumed to be 1.
    const usdc = valued.find((r) => r['asset'] === 'USDC');
    expect(usdc === undefined ? undefined : units(String(usdc['price'])) === units('1')).toBe(false);
    expect(priced).toBeGreaterThan(valued.length * 0.9);
  });

  it('writes year_summary equal to sums the test makes from the ledger and the candles, EUR from USDTEUR', async () => {
    const sums = new Map<string, { amount: bigint; usdt: bigint | null; eur: bigint | null; entries: number; unpriced: number }>();
    for (const r of await ledgerRows()) {
      const key = [r.account, r.asset, r.taxClass].join(',');
      const s = sums.get(key) ?? { amount: 0n, usdt: 0n, eur: 0n, entries: 0, unpriced: 0 };
      const amount = units(r.amount);
      const price = priceAt(r.asset, r.ms);
      const usdt = price === undefined ? undefined : mulHalfEven(amount, price);
      const eur = r.asset === 'EUR' ? amount : usdt === undefined ? undefined : mulHalfEven(usdt, units(close('USDTEUR', Math.floor(r.ms / HOUR) * HOUR)));
      s.amount += amount;
      s.usdt = s.usdt === null || usdt === undefined ? null : s.usdt + usdt;
      s.eur = s.eur === null || eur === undefined ? null : s.eur + eur;
      s.entries++;
      if (usdt === undefined) s.unpriced++;
      sums.set(key, s);
    }
    const expected = [...sums].map(([key, s]) => [...key.split(','), decimalText(s.amount), s.usdt === null ? '' : decimalText(s.usdt), s.eur === null ? '' : decimalText(s.eur), '2025', String(s.entries), String(s.unpriced)]);
    const order = (a: string[], b: string[]) => (a[0]! + a[1]! + a[2]!).localeCompare(b[0]! + b[1]! + b[2]!);
    const [header, ...rows] = csvRows(await readFile(join(out, 'year_summary.csv'), 'utf8'));
    expect(header).toEqual(['account', 'asset', 'tax_class', 'amount', 'value_usdt', 'value_eur', 'year', 'entries', 'unpriced_entries']);
    expect(rows.sort(order)).toEqual(expected.sort(order));
  });

  it('reads no candle twice: a second run asks for nothing and gives the same values', async () => {
    const before = await readFile(join(out, 'year_summary.csv'), 'utf8');
    const requests = sim.stats.byPath['/api/v2/spot/market/history-candles'] ?? 0;
    const env = simEnv(sim.credentials);
    const again = await runCliProcess(['run', 'year-end', '--from', '2025-01-01', '--to', '2025-03-01', '--base-url', sim.baseUrl, '--db', db, '--out', out, '--rate-scale', '100', '--fiat', 'EUR'], { env });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('prices: 0 requests, 0 new hourly candles, 0 answered 429');
    expect(sim.stats.byPath['/api/v2/spot/market/history-candles']).toBe(requests);
    expect(await readFile(join(out, 'year_summary.csv'), 'utf8')).toBe(before);
  }, 120_000);

  it('values in a fiat the platform has no pair for from the rates file, as of each movement', async () => {
    const rates = join(dir, 'gbp.csv');
    await writeFile(rates, 'time,currency,rate\n2025-01-01,GBP,0.80\n2025-02-01,GBP,0.75\n2025-02-01,EUR,0.9\n');
    const run = await runCliProcess(['export', '--from', '2025-01-01', '--to', '2025-03-01', '--db', db, '--out', out, '--fiat', 'GBP', '--fiat-rates', rates, '--format', 'csv']);
    expect(run.status, run.stderr).toBe(0);
    const rows = await read(`SELECT asset, CAST(value_usdt AS VARCHAR) AS usdt, CAST(value_gbp AS VARCHAR) AS gbp, epoch_ms(ts) AS ms FROM ledger_valued WHERE value_usdt IS NOT NULL ORDER BY entry_id`);
    for (const r of rows) {
      const rate = Number(r['ms']) < Date.UTC(2025, 1, 1) ? '0.8' : '0.75';
      expect(r['gbp'] === null ? null : decimalText(units(String(r['gbp'])))).toBe(decimalText(mulHalfEven(units(String(r['usdt'])), units(rate))));
    }
    const [header] = csvRows(await readFile(join(out, 'year_summary.csv'), 'utf8'));
    expect(header).toEqual(['account', 'asset', 'tax_class', 'amount', 'value_usdt', 'value_gbp', 'year', 'entries', 'unpriced_entries']);
  }, 60_000);

  it('refuses a fiat the platform has no pair for without a rates file, naming the flag', async () => {
    const run = await runCliProcess(['prices', '--from', '2025-01-01', '--to', '2025-03-01', '--db', db, '--base-url', sim.baseUrl, '--fiat', 'CHF', '--rate-scale', '100']);
    expect([run.status, run.stderr.trimEnd().split('\n').at(-1)]).toEqual([2, 'ledgerpipe: the platform has no USDTCHF pair to value CHF with; give a rates file with --fiat-rates FILE (README, "Values")']);
  }, 60_000);

  it('puts Net Worth in the fiat into koinly.csv: the value of what each row received', async () => {
    const run = await runCliProcess(['export', '--from', '2025-01-01', '--to', '2025-03-01', '--db', db, '--out', out, '--fiat', 'EUR', '--format', 'koinly']);
    expect(run.status, run.stderr).toBe(0);
    const lines = csvRows(await readFile(join(out, 'koinly.csv'), 'utf8'));
    expect(lines[0]!.slice(7, 9)).toEqual(['Net Worth Amount', 'Net Worth Currency']);
    const withWorth = lines.slice(1).filter((l) => l[7] !== '');
    expect(withWorth.length).toBeGreaterThan(lines.length * 0.8);
    expect(new Set(withWorth.map((l) => l[8]))).toEqual(new Set(['EUR']));
  }, 60_000);
});
