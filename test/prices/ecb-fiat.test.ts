import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARKETS, simClose } from '../../src/sim/endpoints/candles.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliHere, simEnv, type CliResult } from '../helpers/cli.js';
import { decimalText, mulHalfEven, units } from '../helpers/decimal.js';
import { ECB_FIXTURES, startFakeEcb, type FakeEcb } from '../helpers/fake-ecb.js';
import { parseCsv } from '../helpers/tax-files.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const SEED = 'ecb';
// June 2024: it starts on a Saturday, and the fixtures hold the ECB's rates of May to August 2024.
const RANGE = ['--from', '2024-06-01', '--to', '2024-07-01'];
const close = (symbol: string, hour: number) =>
  simClose(
    SEED,
    DEFAULT_MARKETS.find((m) => m.symbol === symbol)!,
    hour,
  );

let dir: string;
let sim: Simulator;
let ecb: FakeEcb;
let db: string;
const runs: Record<string, CliResult> = {};

/** A run against the simulator, with the fake ECB as the ECB's data service. */
function run(args: readonly string[]): Promise<CliResult> {
  return runCliHere(args, { env: { ...simEnv(sim.credentials), LEDGERPIPE_ECB_URL: ecb.baseUrl } });
}

// CSV and the report: what the checks read (Parquet and the tax tools' files, tested elsewhere, took half the time).
const yearEnd = (fiat: string) => [
  'run',
  'year-end',
  ...RANGE,
  '--base-url',
  sim.baseUrl,
  '--db',
  db,
  '--out',
  join(dir, `out-${fiat}`),
  '--rate-scale',
  '100',
  '--fiat',
  fiat,
  '--format',
  'csv,report',
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-ecb-'));
  db = join(dir, 'w.duckdb');
  sim = await startSimulator({
    seed: SEED,
    from: Date.UTC(2024, 5, 1),
    to: Date.UTC(2024, 6, 1),
    records: 150,
    rateScale: 100,
    pendingMs: 0,
  });
  ecb = await startFakeEcb();
  runs['GBP'] = await run(yearEnd('GBP'));
  runs['USD'] = await run(yearEnd('USD'));
}, 120_000);
afterAll(async () => {
  await sim.close();
  await ecb.close();
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

/** The test's own table of the ECB's rates: the fixture's days and values, read as text. */
async function ecbRates(currency: string): Promise<Map<string, string>> {
  const [header = '', ...lines] = (await readFile(join(ECB_FIXTURES, `EXR.D.${currency}.EUR.SP00.A.csv`), 'utf8'))
    .split('\r\n')
    .filter((l) => l !== '');
  const names = header.split(',');
  const [day, value] = [names.indexOf('TIME_PERIOD'), names.indexOf('OBS_VALUE')];
  return new Map(lines.map((l) => [l.split(',')[day]!, l.split(',')[value]!]));
}

/** The rate that values day `ms` (UTC): the one published that day, else the last before it. */
function rateOfDay(rates: ReadonlyMap<string, string>, ms: number): { date: string; rate: string } {
  for (let d = Math.floor(ms / DAY) * DAY; ; d -= DAY) {
    const date = new Date(d).toISOString().slice(0, 10);
    const rate = rates.get(date);
    if (rate !== undefined) return { date, rate };
  }
}

/** The test's own USDT price of an asset at a time, from the simulator's candles; undefined: none. */
function usdtPrice(asset: string, ms: number): bigint | undefined {
  const hour = Math.floor(ms / HOUR) * HOUR;
  if (asset === 'USDT') return units('1');
  return DEFAULT_MARKETS.some((m) => m.symbol === `${asset}USDT`) ? units(close(`${asset}USDT`, hour)) : undefined;
}

interface Valued {
  entryId: string;
  asset: string;
  amount: string;
  ms: number;
  value: string | null;
}

/** The rows of the run's ledger_valued.csv (the file an accountant gets) with their value in `fiat`, as text. */
async function valued(fiat: string): Promise<Valued[]> {
  const [header, ...rows] = parseCsv(await readFile(join(dir, `out-${fiat}`, 'ledger_valued.csv'), 'utf8'));
  const at = (name: string) => header!.indexOf(name);
  expect(at(`value_${fiat.toLowerCase()}`)).toBeGreaterThan(0);
  return rows.map((r) => {
    const value = r[at(`value_${fiat.toLowerCase()}`)]!;
    return {
      entryId: r[at('entry_id')]!,
      asset: r[at('asset')]!,
      amount: r[at('amount')]!,
      ms: Date.parse(r[at('ts')]!),
      value: value === '' ? null : value,
    };
  });
}

/**
 * The test's own value of a movement in `fiat` (docs/values.md, "A fiat"): amount x USDT price x USDTEUR's close of
 * the hour x the ECB's rate of the day, each product rounded half-even at the 18th decimal as lp_mul rounds; EUR is
 * its amount times the ECB's rate.
 */
function byHand(
  r: Valued,
  rates: ReadonlyMap<string, string>,
): { value: string | undefined; close: string; rateDate: string; rate: string } {
  const { date, rate } = rateOfDay(rates, r.ms);
  const eurClose = close('USDTEUR', Math.floor(r.ms / HOUR) * HOUR);
  if (r.asset === 'EUR')
    return { value: decimalText(mulHalfEven(units(r.amount), units(rate))), close: eurClose, rateDate: date, rate };
  const price = usdtPrice(r.asset, r.ms);
  const value =
    price === undefined
      ? undefined
      : decimalText(mulHalfEven(mulHalfEven(units(r.amount), price), mulHalfEven(units(eurClose), units(rate))));
  return { value, close: eurClose, rateDate: date, rate };
}

/** Three movements to check one by one: on a weekday, on a weekend (Friday's rate), and one in EUR (or else USDT). */
function threeMovements(rows: readonly Valued[]): Valued[] {
  const weekday = (r: Valued) => ![0, 6].includes(new Date(r.ms).getUTCDay());
  const picked = [
    rows.find((r) => weekday(r) && r.asset !== 'USDT' && r.asset !== 'EUR' && usdtPrice(r.asset, r.ms) !== undefined),
    rows.find((r) => !weekday(r) && usdtPrice(r.asset, r.ms) !== undefined),
    rows.find((r) => r.asset === 'EUR') ?? rows.find((r) => r.asset === 'USDT'),
  ];
  expect(picked.every((r) => r !== undefined)).toBe(true);
  return picked as Valued[];
}

describe.each(['GBP', 'USD'])('run year-end --fiat %s against the simulator and the ECB', (fiat) => {
  it('exits 0, valuing through USDTEUR and the ECB, and says so in the summary, the settings, the manifest and the report', async () => {
    const result = runs[fiat]!;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `\\nfiat ${fiat}: USDTEUR x the European Central Bank's euro rate of the day; ECB: 1 request, \\d+ new daily rates \\(fx_rates\\)\\n`,
      ),
    );
    expect(result.stderr).toContain(
      `fiat ${fiat}: the platform lists no USDT${fiat} pair; values in ${fiat} go through USDTEUR and the European Central Bank's euro rates (docs/values.md)\n`,
    );
    const manifest = JSON.parse(await readFile(join(dir, `out-${fiat}`, 'manifest.json'), 'utf8')) as {
      fiat: string;
      fiat_source: string;
    };
    expect([manifest.fiat, manifest.fiat_source]).toEqual([fiat, 'ecb']);
    const report = await readFile(join(dir, `out-${fiat}`, 'report.html'), 'utf8');
    expect(report).toContain(
      `values in ${fiat} <span id="fiat-source">(by the platform&#39;s USDTEUR candles × the European Central Bank&#39;s euro reference rates)</span>`,
    );
  });

  it('checks three movements by hand: a weekday, a weekend on the Friday before, and EUR at the rate alone', async () => {
    const rates = await ecbRates(fiat);
    const rows = await valued(fiat);
    const [weekday, weekend, third] = threeMovements(rows);
    const figures = [weekday!, weekend!, third!].map((r) => ({
      entry: r.entryId,
      day: new Date(r.ms).toISOString(),
      asset: r.asset,
      amount: r.amount,
      ...byHand(r, rates),
      got: r.value,
    }));
    // The weekend's rate is the Friday's: two or one days before.
    expect([1, 2]).toContain((Date.parse(figures[1]!.day.slice(0, 10)) - Date.parse(figures[1]!.rateDate)) / DAY);
    expect(new Date(figures[1]!.rateDate).getUTCDay()).toBe(5);
    expect(figures[0]!.rateDate).toBe(figures[0]!.day.slice(0, 10));
    for (const f of figures) expect(f.got, JSON.stringify(f)).toBe(f.value);
  });

  it('values every movement of the range the same way, and none without a rate or a price is guessed', async () => {
    const rates = await ecbRates(fiat);
    const rows = await valued(fiat);
    expect(rows.length).toBeGreaterThan(100);
    const got = rows.map((r) => [r.entryId, r.value]);
    const expected = rows.map((r) => [r.entryId, byHand(r, rates).value ?? null]);
    expect(got).toEqual(expected);
    expect(rows.filter((r) => r.value !== null).length).toBeGreaterThan(rows.length * 0.9);
  });
});

describe('the ECB read once, kept in the warehouse', () => {
  it('asked the ECB once per currency, for the days of the range and its history with a week before, in its CSV', () => {
    expect(ecb.requests).toHaveLength(2);
    for (const [i, fiat] of ['GBP', 'USD'].entries()) {
      expect(ecb.requests[i]).toMatch(
        new RegExp(
          `^/service/data/EXR/D\\.${fiat}\\.EUR\\.SP00\\.A\\?startPeriod=2024-05-\\d\\d&endPeriod=2024-06-30&format=csvdata$`,
        ),
      );
    }
  });

  it('keeps each rate as published (fx_rates) and the days read (fx_coverage); fx_rates_daily gives Friday to the weekend', async () => {
    const gbp = await ecbRates('GBP');
    const held = await read(
      "SELECT strftime(date, '%Y-%m-%d') AS date, CAST(rate AS VARCHAR) AS rate, source FROM fx_rates WHERE currency = 'GBP' ORDER BY date",
    );
    expect(held.length).toBeGreaterThan(20);
    for (const r of held)
      expect([r['date'], decimalText(units(String(r['rate']))), r['source']]).toEqual([
        r['date'],
        decimalText(units(gbp.get(String(r['date']))!)),
        'ecb',
      ]);
    expect(
      await read(
        "SELECT currency, strftime(last_date, '%Y-%m-%d') AS last, url LIKE '%/service/data/EXR/D.' || currency || '.EUR.SP00.A?%' AS url FROM fx_coverage ORDER BY currency",
      ),
    ).toEqual([
      { currency: 'GBP', last: '2024-06-30', url: true },
      { currency: 'USD', last: '2024-06-30', url: true },
    ]);
    expect(
      await read(
        "SELECT strftime(date, '%Y-%m-%d') AS date, strftime(rate_date, '%Y-%m-%d') AS rate_date, CAST(rate AS VARCHAR) AS rate FROM fx_rates_daily WHERE currency = 'GBP' AND date IN ('2024-06-07', '2024-06-08', '2024-06-09', '2024-06-10') ORDER BY date",
      ),
    ).toEqual([
      { date: '2024-06-07', rate_date: '2024-06-07', rate: '0.851200000000000000' },
      { date: '2024-06-08', rate_date: '2024-06-07', rate: '0.851200000000000000' },
      { date: '2024-06-09', rate_date: '2024-06-07', rate: '0.851200000000000000' },
      { date: '2024-06-10', rate_date: '2024-06-10', rate: '0.845650000000000000' },
    ]);
  });

  it('reads no day twice: prices in GBP again, the ECB out of reach, ask it nothing and value from the rates held', async () => {
    const again = await runCliHere(
      ['prices', ...RANGE, '--base-url', sim.baseUrl, '--db', db, '--rate-scale', '100', '--fiat', 'GBP'],
      {
        env: { ...process.env, LEDGERPIPE_ECB_URL: 'http://127.0.0.1:9/service' },
      },
    );
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('fiat: USD -> GBP; values remade');
    expect(again.stderr).not.toContain('European Central Bank');
    expect(again.stdout).toContain(
      "fiat GBP: USDTEUR x the European Central Bank's euro rate of the day; ECB: 0 requests, 0 new daily rates (fx_rates)\n",
    );
    expect(ecb.requests).toHaveLength(2);
    const held = await read(
      "SELECT entry_id, CAST(value_gbp AS VARCHAR) AS v FROM ledger_valued WHERE ts >= '2024-06-01' AND ts < '2024-07-01'",
    );
    const inWarehouse = new Map(
      held.map((r) => [String(r['entry_id']), r['v'] === null ? null : decimalText(units(String(r['v'])))]),
    );
    expect(inWarehouse.size).toBeGreaterThan(100);
    for (const r of await valued('GBP')) expect([r.entryId, inWarehouse.get(r.entryId)]).toEqual([r.entryId, r.value]);
  }, 60_000);
});

describe('a rates file', () => {
  it('wins over the ECB: the export values GBP by the file, and fiat_source says file', async () => {
    const rates = join(dir, 'gbp.csv');
    await writeFile(rates, 'time,currency,rate\n2024-05-01,GBP,0.8\n');
    const result = await runCliHere([
      'export',
      ...RANGE,
      '--db',
      db,
      '--out',
      join(dir, 'out-file'),
      '--fiat',
      'GBP',
      '--fiat-rates',
      rates,
      '--format',
      'csv',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('fiat rates: ecb -> file; values remade');
    expect(await read('SELECT fiat, fiat_source FROM settings')).toEqual([{ fiat: 'GBP', fiat_source: 'file' }]);
    const manifest = JSON.parse(await readFile(join(dir, 'out-file', 'manifest.json'), 'utf8')) as {
      fiat_source: string;
    };
    expect(manifest.fiat_source).toBe('file');
    const row = (
      await read(
        "SELECT CAST(value_usdt AS VARCHAR) AS usdt, CAST(value_gbp AS VARCHAR) AS gbp FROM ledger_valued WHERE asset = 'USDT' AND ts >= '2024-06-01' LIMIT 1",
      )
    )[0]!;
    expect(decimalText(units(String(row['gbp'])))).toBe(
      decimalText(mulHalfEven(units(String(row['usdt'])), units('0.8'))),
    );
  }, 60_000);
});

describe('a fiat nothing values', () => {
  it('--fiat XYZ exits 2 at once with one line, no warehouse made and no request sent', async () => {
    const fresh = join(dir, 'xyz.duckdb');
    const requests = sim.stats.requests;
    const result = await run([
      'run',
      'year-end',
      ...RANGE,
      '--base-url',
      sim.baseUrl,
      '--db',
      fresh,
      '--out',
      join(dir, 'out-xyz'),
      '--rate-scale',
      '100',
      '--fiat',
      'XYZ',
    ]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      '',
      "ledgerpipe: --fiat XYZ: the European Central Bank publishes no euro rate for XYZ and no rates file gives one; for another currency than EUR or the ECB's (docs/values.md lists them), give its rates with --fiat-rates FILE\n",
    ]);
    expect([existsSync(fresh), existsSync(join(dir, 'out-xyz')), sim.stats.requests, ecb.requests.length]).toEqual([
      false,
      false,
      requests,
      2,
    ]);
  });
});
