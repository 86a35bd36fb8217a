import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARKETS, simClose } from '../../src/sim/endpoints/candles.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { queryCsv, runCliHere, simEnv } from '../helpers/cli.js';
import { decimalText, mulHalfEven, units } from '../helpers/decimal.js';
import { parseCsv } from '../helpers/tax-files.js';

const HOUR = 3_600_000;
const SEED = 'values';
// No BGBUSDT: BGB is priced through BGBBTC times BTCUSDT. EUR (of fiat deposits) has no pair at all.
const MARKETS = DEFAULT_MARKETS.filter((m) => m.symbol !== 'BGBUSDT');
const close = (symbol: string, hour: number) =>
  simClose(
    SEED,
    MARKETS.find((m) => m.symbol === symbol)!,
    hour,
  );

let dir: string;
let sim: Simulator;
let db: string;
let out: string;
let firstRun: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-values-'));
  db = join(dir, 'w.duckdb');
  out = join(dir, 'out');
  sim = await startSimulator({
    seed: SEED,
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 2, 1),
    records: 300,
    rateScale: 100,
    pendingMs: 0,
    markets: MARKETS,
  });
  const env = simEnv(sim.credentials);
  const run = await runCliHere(
    [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--base-url',
      sim.baseUrl,
      '--db',
      db,
      '--out',
      out,
      '--rate-scale',
      '100',
      '--fiat',
      'EUR',
    ],
    { env },
  );
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
interface LedgerRow {
  account: string;
  entryId: string;
  asset: string;
  amount: string;
  ms: number;
  taxClass: string;
}

/**
 * The ledger rows of the range: the history before it, read for the cost basis (docs/history.md), is no row of its
 * files.
 */
async function ledgerRows(): Promise<LedgerRow[]> {
  const rows =
    await read(`SELECT account, entry_id, asset, CAST(amount AS VARCHAR) AS amount, epoch_ms(ts) AS ms, m.tax_class
    FROM ledger JOIN category_meaning AS m USING (category) WHERE ts >= '2025-01-01' AND ts < '2025-03-01' ORDER BY entry_id`);
  return rows.map((r) => ({
    account: String(r['account']),
    entryId: String(r['entry_id']),
    asset: String(r['asset']),
    amount: String(r['amount']),
    ms: Number(r['ms']),
    taxClass: String(r['tax_class']),
  }));
}

/** The test's own USDT price of an asset at a time, from the candles the simulator serves; undefined: none. */
function priceAt(asset: string, ms: number): bigint | undefined {
  const hour = Math.floor(ms / HOUR) * HOUR;
  if (asset === 'USDT') return units('1');
  if (asset === 'BGB') return mulHalfEven(units(close('BGBBTC', hour)), units(close('BTCUSDT', hour)));
  if (MARKETS.some((m) => m.symbol === `${asset}USDT`)) return units(close(`${asset}USDT`, hour));
  return undefined;
}

/** The test's own USDT value of a ledger row; undefined: no price. */
function usdtValue(r: LedgerRow): bigint | undefined {
  const price = priceAt(r.asset, r.ms);
  return price === undefined ? undefined : mulHalfEven(units(r.amount), price);
}

/** The test's own EUR value of a ledger row: EUR is worth its amount, the rest its USDT value times USDTEUR's close. */
function eurValue(r: LedgerRow): bigint | undefined {
  if (r.asset === 'EUR') return units(r.amount);
  const usdt = usdtValue(r);
  return usdt === undefined ? undefined : mulHalfEven(usdt, units(close('USDTEUR', Math.floor(r.ms / HOUR) * HOUR)));
}

const negate = (v: bigint | undefined) => (v === undefined ? undefined : -v);
const absolute = (v: bigint | undefined) => (v === undefined ? undefined : v < 0n ? -v : v);

function csvRows(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));
}

describe('values: hourly candles to exact values in USDT and a fiat', () => {
  it('prices each asset by its stated route, and lists the one with no pair', () => {
    expect(firstRun).toContain('  BGB      BGBBTC x BTCUSDT\n');
    expect(firstRun).toContain('  USDC     USDCUSDT\n');
    // EUR is the fiat here: worth its amount in EUR, and without a USDT price, so listed as such.
    expect(firstRun).toMatch(/movements without a value[^\n]*\n {2}EUR: \d+ without a USDT price\n/);
  });

  it('gives every ledger row the close of its hour times its amount, exact, in ledger_valued', async () => {
    const valued = await read(
      `SELECT entry_id, asset, CAST(amount AS VARCHAR) AS amount, epoch_ms(ts) AS ms, CAST(price_usdt AS VARCHAR) AS price, CAST(value_usdt AS VARCHAR) AS value FROM ledger_valued ORDER BY entry_id`,
    );
    expect(valued.length).toBeGreaterThan(500);
    let priced = 0;
    for (const r of valued) {
      const price = priceAt(String(r['asset']), Number(r['ms']));
      const expected =
        price === undefined
          ? [null, null]
          : [decimalText(price), decimalText(mulHalfEven(units(String(r['amount'])), price))];
      const got = [
        r['price'] === null ? null : decimalText(units(String(r['price']))),
        r['value'] === null ? null : decimalText(units(String(r['value']))),
      ];
      expect([r['entry_id'], ...got]).toEqual([r['entry_id'], ...expected]);
      if (price !== undefined) priced++;
    }
    // The stablecoin rule: USDT is 1; USDC is its own market's price, never assumed to be 1.
    const usdc = valued.find((r) => r['asset'] === 'USDC');
    expect(usdc === undefined ? undefined : units(String(usdc['price'])) === units('1')).toBe(false);
    expect(priced).toBeGreaterThan(valued.length * 0.9);
  });

  it('writes year_summary equal to sums the test makes from the ledger and the candles, EUR from USDTEUR', async () => {
    const sums = new Map<
      string,
      { amount: bigint; usdt: bigint | null; eur: bigint | null; entries: number; unpriced: number }
    >();
    for (const r of await ledgerRows()) {
      const key = [r.account, r.asset, r.taxClass].join(',');
      const s = sums.get(key) ?? { amount: 0n, usdt: 0n, eur: 0n, entries: 0, unpriced: 0 };
      const amount = units(r.amount);
      const usdt = usdtValue(r);
      const eur = eurValue(r);
      s.amount += amount;
      s.usdt = s.usdt === null || usdt === undefined ? null : s.usdt + usdt;
      s.eur = s.eur === null || eur === undefined ? null : s.eur + eur;
      s.entries++;
      if (usdt === undefined) s.unpriced++;
      sums.set(key, s);
    }
    const expected = [...sums].map(([key, s]) => [
      ...key.split(','),
      decimalText(s.amount),
      s.usdt === null ? '' : decimalText(s.usdt),
      s.eur === null ? '' : decimalText(s.eur),
      '2025',
      String(s.entries),
      String(s.unpriced),
    ]);
    const order = (a: string[], b: string[]) => (a[0]! + a[1]! + a[2]!).localeCompare(b[0]! + b[1]! + b[2]!);
    const [header, ...rows] = csvRows(await readFile(join(out, 'year_summary.csv'), 'utf8'));
    expect(header).toEqual([
      'account',
      'asset',
      'tax_class',
      'amount',
      'value_usdt',
      'value_eur',
      'year',
      'entries',
      'unpriced_entries',
    ]);
    expect(rows.sort(order)).toEqual(expected.sort(order));
  });

  it('gives year_summary in the warehouse as decimals a query can add up, equal to year_summary.csv', async () => {
    // What `ledgerpipe query --db DB --format csv SQL` prints (the command's own code, in this process).
    const query = (sql: string) => queryCsv(db, sql);
    const columns = 'account, asset, tax_class, amount, value_usdt, value_eur, year, entries, unpriced_entries';
    // The warehouse's summary holds every year, the history's too: the range's is the file's.
    expect(
      await query(`SELECT ${columns} FROM year_summary WHERE year = '2025' ORDER BY account, year, asset, tax_class`),
    ).toBe(await readFile(join(out, 'year_summary.csv'), 'utf8'));
    expect(
      await query(
        'SELECT DISTINCT typeof(amount) AS a, typeof(value_usdt) AS u, typeof(value_eur) AS e FROM year_summary',
      ),
    ).toBe('a,u,e\n"DECIMAL(38,18)","DECIMAL(38,18)","DECIMAL(38,18)"\n');
    // sum() over the view is the exact total of the ledger's EUR values of the priced classes.
    expect(await query("SELECT sum(value_eur) AS total FROM year_summary WHERE tax_class = 'realized_pnl'")).toBe(
      await query(
        "SELECT sum(value_eur) AS total FROM ledger_valued AS l JOIN category_meaning AS m USING (category) WHERE m.tax_class = 'realized_pnl' AND l.ts < TIMESTAMPTZ '2025-03-01 00:00:00+00'",
      ),
    );
  });

  it('reads no candle twice: a second run asks for nothing and gives the same values', async () => {
    const before = await readFile(join(out, 'year_summary.csv'), 'utf8');
    const requests = sim.stats.byPath['/api/v2/spot/market/history-candles'] ?? 0;
    const env = simEnv(sim.credentials);
    const again = await runCliHere(
      [
        'run',
        'year-end',
        '--from',
        '2025-01-01',
        '--to',
        '2025-03-01',
        '--base-url',
        sim.baseUrl,
        '--db',
        db,
        '--out',
        out,
        '--rate-scale',
        '100',
        '--fiat',
        'EUR',
      ],
      { env },
    );
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('prices: 0 requests, 0 new hourly candles, 0 answered 429');
    expect(sim.stats.byPath['/api/v2/spot/market/history-candles']).toBe(requests);
    expect(await readFile(join(out, 'year_summary.csv'), 'utf8')).toBe(before);
  }, 120_000);

  it('values in a fiat the platform has no pair for from the rates file, as of each movement', async () => {
    const rates = join(dir, 'gbp.csv');
    await writeFile(rates, 'time,currency,rate\n2025-01-01,GBP,0.80\n2025-02-01,GBP,0.75\n2025-02-01,EUR,0.9\n');
    const run = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--out',
      out,
      '--fiat',
      'GBP',
      '--fiat-rates',
      rates,
      '--format',
      'csv',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const rows = await read(
      `SELECT asset, CAST(value_usdt AS VARCHAR) AS usdt, CAST(value_gbp AS VARCHAR) AS gbp, epoch_ms(ts) AS ms FROM ledger_valued WHERE value_usdt IS NOT NULL AND ts >= '2025-01-01' ORDER BY entry_id`,
    );
    for (const r of rows) {
      const rate = Number(r['ms']) < Date.UTC(2025, 1, 1) ? '0.8' : '0.75';
      expect(r['gbp'] === null ? null : decimalText(units(String(r['gbp'])))).toBe(
        decimalText(mulHalfEven(units(String(r['usdt'])), units(rate))),
      );
    }
    const [header] = csvRows(await readFile(join(out, 'year_summary.csv'), 'utf8'));
    expect(header).toEqual([
      'account',
      'asset',
      'tax_class',
      'amount',
      'value_usdt',
      'value_gbp',
      'year',
      'entries',
      'unpriced_entries',
    ]);
  }, 60_000);

  it('warns, per asset, of the movements with no USDT price and apart of those with no rate of the fiat', async () => {
    const rates = join(dir, 'gbp-from-february.csv');
    await writeFile(rates, 'time,currency,rate\n2025-02-01,GBP,0.75\n');
    const run = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--out',
      join(dir, 'out-gbp'),
      '--fiat',
      'GBP',
      '--fiat-rates',
      rates,
      '--format',
      'csv',
    ]);
    expect(run.status, run.stderr).toBe(0);
    // The test's own count: no USDT price, no value in GBP either; before February, no GBP rate.
    const counts = new Map<string, number>();
    const add = (asset: string, missing: string) =>
      counts.set(`${asset}\t${missing}`, (counts.get(`${asset}\t${missing}`) ?? 0) + 1);
    for (const r of await ledgerRows()) {
      const usdt = usdtValue(r);
      if (usdt === undefined) add(r.asset, 'usdt');
      if (usdt === undefined || r.ms < Date.UTC(2025, 1, 1)) add(r.asset, 'GBP');
    }
    const expected = [...counts.keys()].sort().map((key) => {
      const [asset, missing] = key.split('\t') as [string, string];
      return `warn: ${counts.get(key)} ${asset} movements of the range have no ${missing === 'usdt' ? 'USDT price' : 'GBP rate'}: their value is left empty (docs/values.md)`;
    });
    expect(expected.length).toBeGreaterThan(3);
    expect(run.stderr.split('\n').filter((line) => line.includes(' movements of the range have no '))).toEqual(
      expected,
    );
  }, 60_000);

  it('values a fiat the platform has no pair for through the euro, and with the ECB out of reach leaves its values empty', async () => {
    // The tests' environment points LEDGERPIPE_ECB_URL at a closed port (vitest.config.ts):
    // test/prices/ecb-fiat.test.ts reads a fake.
    const run = await runCliHere([
      'prices',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--base-url',
      sim.baseUrl,
      '--fiat',
      'CHF',
      '--rate-scale',
      '100',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "fiat CHF: the platform lists no USDTCHF pair; values in CHF go through USDTEUR and the European Central Bank's euro rates (docs/values.md)\n",
    );
    expect(run.stderr).toMatch(
      /\nwarn: the European Central Bank's euro rates of CHF could not be read \(GET http:\/\/127\.0\.0\.1:9\/service\/data\/EXR\/D\.CHF\.EUR\.SP00\.A: connection refused; [^\n]*\); movements of days without a rate have no value in CHF; run ledgerpipe prices again later\n/,
    );
    expect(await read('SELECT count(*) > 500 AS movements, count(value_chf) AS valued FROM ledger_valued')).toEqual([
      { movements: true, valued: 0n },
    ]);
    // The export lists them as it lists movements without a candle: per asset, without a CHF rate.
    const files = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--out',
      join(dir, 'out-chf'),
      '--format',
      'csv',
    ]);
    expect(files.status, files.stderr).toBe(0);
    expect(files.stderr).toMatch(
      /^warn: \d+ BTC movements of the range have no CHF rate: their value is left empty \(docs\/values\.md\)$/m,
    );
  }, 60_000);

  it('refuses to read prices into a warehouse with no ledger yet, naming the command to run first', async () => {
    const fresh = join(dir, 'never-transformed.duckdb');
    const run = await runCliHere([
      'prices',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      fresh,
      '--base-url',
      sim.baseUrl,
      '--rate-scale',
      '100',
    ]);
    expect([run.status, run.stderr, run.stdout]).toEqual([
      2,
      'ledgerpipe: the warehouse has no ledger yet, and prices are read for the assets it moves: run ledgerpipe extract and transform first, then prices\n',
      '',
    ]);
  });

  it('puts values in EUR into the tax files: Koinly Net Worth of what a row received, CoinTracking each side', async () => {
    const run = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--out',
      out,
      '--fiat',
      'EUR',
      '--format',
      'koinly,cointracking',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const [koHeader, ...koinly] = parseCsv(await readFile(join(out, 'koinly.csv'), 'utf8'));
    const [ctHeader, ...cointracking] = parseCsv(await readFile(join(out, 'cointracking.csv'), 'utf8'));
    expect([koHeader!.slice(7, 9), ctHeader!.slice(12)]).toEqual([
      ['Net Worth Amount', 'Net Worth Currency'],
      ['Buy Value in your Account Currency', 'Sell Value in your Account Currency'],
    ]);
    // Which entries make each row comes from the warehouse (the grouping is tested with the tax files); the
    // values are the test's own. Both files list the rows in one order, and CoinTracking's Tx-ID names the row.
    const ledger = new Map((await ledgerRows()).map((r) => [`${r.account}:${r.entryId}`, r]));
    const rowEntries = new Map<string, { first: string; entries: LedgerRow[] }>();
    for (const r of await read('SELECT account, row_id, entry_id FROM tax_export_entries')) {
      const txId = `${String(r['account'])}:${String(r['row_id'])}`;
      const row = rowEntries.get(txId) ?? { first: String(r['row_id']), entries: [] };
      row.entries.push(ledger.get(`${String(r['account'])}:${String(r['entry_id'])}`)!);
      rowEntries.set(txId, row);
    }
    /** The sum of the EUR values of the row's entries that `pick` takes: undefined when one has none. */
    const total = (entries: LedgerRow[], pick: (r: LedgerRow) => boolean): bigint | undefined => {
      const values = entries.filter(pick).map(eurValue);
      return values.includes(undefined) ? undefined : values.reduce((a, b) => a! + b!, 0n);
    };
    const text = (v: bigint | undefined) => (v === undefined ? '' : decimalText(v));
    expect(koinly.length).toBe(cointracking.length);
    const got = koinly.map((ko, i) => [ko[7], ko[8], cointracking[i]![12], cointracking[i]![13]]);
    const expected = cointracking.map((ct) => {
      const { first, entries } = rowEntries.get(ct[11]!)!;
      const receives = entries.some((r) => units(r.amount) > 0n);
      const worth = receives
        ? total(entries, (r) => units(r.amount) > 0n)
        : absolute(total(entries, (r) => r.entryId === first));
      const buy = ct[2] === '' ? '' : text(total(entries, (r) => r.asset === ct[2]));
      const sell = ct[4] === '' ? '' : text(negate(total(entries, (r) => r.asset === ct[4])));
      return [text(worth), worth === undefined ? '' : 'EUR', buy, sell];
    });
    expect(got).toEqual(expected);
    // Most rows have every value: the test checks numbers, not only empty cells.
    expect(got.filter((g) => g[0] !== '' && (g[2] !== '' || g[3] !== '')).length).toBeGreaterThan(got.length * 0.8);
  }, 60_000);

  it('leaves the value columns empty without --fiat: the tools price the rows themselves', async () => {
    // The warehouse keeps the fiat it was given (docs/settings.md): --fiat none stops it.
    const run = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--db',
      db,
      '--out',
      out,
      '--format',
      'koinly,cointracking',
      '--fiat',
      'none',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const koinly = parseCsv(await readFile(join(out, 'koinly.csv'), 'utf8')).slice(1);
    const cointracking = parseCsv(await readFile(join(out, 'cointracking.csv'), 'utf8')).slice(1);
    expect([new Set(koinly.flatMap((r) => r.slice(7, 9))), new Set(cointracking.flatMap((r) => r.slice(12)))]).toEqual([
      new Set(['']),
      new Set(['']),
    ]);
  }, 60_000);
});
