import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf } from '../../src/prices/candles.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { assetBalances } from '../../src/streams/asset-balances.js';
import { STREAMS } from '../../src/streams/index.js';
import { queryCsv, runCliHere, simEnv } from '../helpers/cli.js';

// Prices beside the extraction (docs/values.md, "Where prices come from"): a year-end reads candles while its
// records are still being fetched, and writes the very files the stages give one after another.

const CANDLES = '/api/v2/spot/market/history-candles';
const RANGE = ['--from', '2025-01-01', '--to', '2025-04-01'];
let dir: string;
let sim: Simulator;
const requests: { path: string; at: number }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-beside-'));
  sim = await startSimulator({ seed: 'beside', from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 3, 1), records: 300, rateScale: 20, pendingMs: 0, onRequest: ({ path }) => requests.push({ path, at: performance.now() }) });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (db: string, ...args: string[]) =>
  runCliHere([...args, '--base-url', sim.baseUrl, '--db', join(dir, db), '--out', join(dir, `out-${db}`), '--rate-scale', '20', '--fiat', 'EUR', '--quiet'], { env: simEnv(sim.credentials) });

describe('prices beside the extraction', () => {
  it('reads candles while the records are fetched, and writes the files the stages write one after another', async () => {
    requests.length = 0;
    const run = await cli('together', 'run', 'year-end', ...RANGE);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const records = requests.filter((r) => r.path !== CANDLES && r.path !== '/api/v2/public/time');
    const candles = requests.filter((r) => r.path === CANDLES);
    // Most candles are read before the last record is: the prices stage after the transform reads what is left.
    const before = candles.filter((c) => c.at < (records.at(-1)?.at ?? 0)).length;
    expect(before / candles.length).toBeGreaterThan(0.5);

    for (const stage of [['extract', ...RANGE], ['transform'], ['prices', ...RANGE], ['export', ...RANGE, '--format', 'csv,koinly,cointracking']]) {
      const one = await cli('apart', ...stage);
      expect([stage[0], one.status, one.stderr]).toEqual([stage[0], 0, '']);
    }
    for (const file of ['ledger_valued.csv', 'year_summary.csv', 'koinly.csv', 'cointracking.csv']) {
      expect((await readFile(join(dir, 'out-together', file))).equals(await readFile(join(dir, 'out-apart', file))), file).toBe(true);
    }
  }, 120_000);
});

// The candles follow the records as they load (docs/values.md, "Where prices come from"), whatever the snapshot
// says: each asset's candles of the range are asked before the last record is, asked once, and the files and price
// tables are those of the stages run one after another. At a rate scale of 2 the records of a quarter take some 5 s
// (futures tax records, 10 requests at 1 a second), the candles of its assets under 2 s.
const FOLLOW_RATE = '2';
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 3, 1);
const RECORD_PATHS: ReadonlySet<string> = new Set(STREAMS.filter((s) => s.kind === 'paged').map((s) => s.path));
const SNAPSHOT_PATHS: ReadonlySet<string> = new Set(assetBalances.parts.map((p) => p.path));
const WITHOUT_SNAPSHOT = STREAMS.filter((s) => s.name !== assetBalances.name).map((s) => s.name).join(',');

interface Asked {
  path: string;
  symbol: string | null;
  endTime: number;
  at: number;
}

/** A simulator of the quarter whose every request is kept in `asked`, stamped as it arrives (front: no 429 from bunching). */
async function followedSimulator(asked: Asked[], options: Partial<SimulatorOptions>): Promise<Simulator> {
  return startSimulator({
    from: FROM,
    to: TO,
    rateScale: Number(FOLLOW_RATE),
    pendingMs: 0,
    front: true,
    ...options,
    onRequest: ({ path, query }) => asked.push({ path, symbol: query.get('symbol'), endTime: Number(query.get('endTime')), at: performance.now() }),
  });
}

/** Per symbol, how many of `candles` ask for it. */
function perSymbol(candles: readonly Asked[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of candles) counts[c.symbol as string] = (counts[c.symbol as string] ?? 0) + 1;
  return counts;
}

/**
 * What the candle requests of a run show beside its record requests: the symbols asked; per symbol, the requests of
 * the range's spans (the history's, before FROM, are read after the transform), all of them and those asked before
 * the last record request; the first candle request of each symbol before the last record request; and any span
 * asked twice.
 */
function candleTimeline(asked: readonly Asked[]): { symbols: string[]; range: Record<string, number>; beforeLastRecord: Record<string, number>; startedBefore: string[]; repeated: string[] } {
  const lastRecord = Math.max(...asked.filter((a) => RECORD_PATHS.has(a.path)).map((a) => a.at));
  const candles = asked.filter((a) => a.path === CANDLES);
  const range = candles.filter((c) => c.endTime > FROM);
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const c of candles) {
    const key = `${c.symbol} ${c.endTime}`;
    if (seen.has(key)) repeated.push(key);
    seen.add(key);
  }
  const symbols = [...new Set(candles.map((c) => c.symbol as string))].sort();
  const startedBefore = symbols.filter((s) => Math.min(...candles.filter((c) => c.symbol === s).map((c) => c.at)) < lastRecord);
  return { symbols, range: perSymbol(range), beforeLastRecord: perSymbol(range.filter((c) => c.at < lastRecord)), startedBefore, repeated };
}

/** The price tables of two warehouses side by side, but for when each row was read: the rows only one of them has. */
async function priceTablesApart(a: string, b: string): Promise<Record<string, number>> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await c.run(`ATTACH '${a}' AS a (READ_ONLY)`);
    await c.run(`ATTACH '${b}' AS b (READ_ONLY)`);
    const apart: Record<string, number> = {};
    for (const [table, columns] of Object.entries(PRICE_TABLE_COLUMNS)) {
      const sql = (x: string, y: string) => `SELECT count(*) FROM (SELECT ${columns} FROM ${x}.${table} EXCEPT ALL SELECT ${columns} FROM ${y}.${table})`;
      apart[table] = Number((await c.runAndReadAll(sql('a', 'b'))).getRows()[0]?.[0]) + Number((await c.runAndReadAll(sql('b', 'a'))).getRows()[0]?.[0]);
    }
    return apart;
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** Each price table's columns but those that say when a row was read (fetched_at, checked_at). */
const PRICE_TABLE_COLUMNS: Readonly<Record<string, string>> = {
  price_candles: 'symbol, granularity, ts, close, payload',
  price_coverage: 'symbol, granularity, window_start, window_end, candles, missing_hours, missing_reason',
  price_routes: 'asset, symbol, via',
  price_pairs: 'symbol, listed',
};

describe('prices beside the extraction follow the records', () => {
  const asked: Asked[] = [];
  let soldOff: Simulator;
  let stress: Simulator;
  const spans = chunksOf({ start: FROM, end: TO }).length;

  beforeAll(async () => {
    soldOff = await followedSimulator(asked, { dataset: 'retail', seed: 'follow', openedAt: FROM - 5 * 86_400_000, soldOff: true });
    stress = await followedSimulator(asked, { seed: 'follow', records: 300 });
  });
  afterAll(async () => {
    await soldOff.close();
    await stress.close();
  });

  const follow = (sim: Simulator, db: string, ...args: string[]) =>
    runCliHere([...args, '--base-url', sim.baseUrl, '--db', join(dir, db), '--out', join(dir, `out-${db}`), '--rate-scale', FOLLOW_RATE, '--fiat', 'EUR', '--quiet'], { env: simEnv(sim.credentials) });

  it('reads the candles of coins no longer held, which the snapshot does not list, before the last record is read', async () => {
    asked.length = 0;
    const run = await follow(soldOff, 'sold-off', 'run', 'year-end', ...RANGE);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const csv = (sql: string) => queryCsv(join(dir, 'sold-off'), sql);
    expect(await csv('SELECT DISTINCT asset FROM asset_balances WHERE asset IS NOT NULL ORDER BY asset')).toBe('asset\nUSDT\n');
    expect(await csv("SELECT DISTINCT asset FROM ledger WHERE ts >= '2025-01-01' AND ts < '2025-04-01' ORDER BY asset")).toBe('asset\nBTC\nETH\nSOL\nUSDT\n');
    const { symbols, range, beforeLastRecord, repeated } = candleTimeline(asked);
    expect(symbols).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'USDTEUR']);
    // Every span of the range of each, asked once, and before the last record: none left for the prices stage after
    // the transform (its coins' records come from the first pages on).
    const all = { BTCUSDT: spans, ETHUSDT: spans, SOLUSDT: spans, USDTEUR: spans };
    expect(range).toEqual(all);
    expect(beforeLastRecord).toEqual(all);
    expect(repeated).toEqual([]);
  }, 120_000);

  it('reads them with --streams without asset_balances too, and writes the files and price tables of the stages one after another', async () => {
    asked.length = 0;
    const run = await follow(stress, 'no-snapshot', 'run', 'year-end', ...RANGE, '--streams', WITHOUT_SNAPSHOT);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(asked.filter((a) => SNAPSHOT_PATHS.has(a.path))).toEqual([]);
    const { symbols, range, startedBefore, repeated } = candleTimeline(asked);
    expect(symbols).toEqual(['BGBUSDT', 'BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'USDCUSDT', 'USDTEUR', 'XRPUSDT']);
    // Each begun before the last record request (an asset first met in the last pages may end after it), every span
    // of the range asked once.
    expect(startedBefore).toEqual(symbols);
    expect(range).toEqual(Object.fromEntries(symbols.map((s) => [s, spans])));
    expect(repeated).toEqual([]);

    for (const stage of [['extract', ...RANGE, '--streams', WITHOUT_SNAPSHOT], ['transform'], ['prices', ...RANGE], ['export', ...RANGE, '--format', 'csv,parquet,koinly,cointracking']]) {
      const one = await follow(stress, 'no-snapshot-apart', ...stage);
      expect([stage[0], one.status, one.stderr]).toEqual([stage[0], 0, '']);
    }
    for (const file of ['ledger_valued.csv', 'ledger_valued.parquet', 'year_summary.csv', 'disposals.csv', 'koinly.csv', 'cointracking.csv']) {
      expect((await readFile(join(dir, 'out-no-snapshot', file))).equals(await readFile(join(dir, 'out-no-snapshot-apart', file))), file).toBe(true);
    }
    expect(await priceTablesApart(join(dir, 'no-snapshot'), join(dir, 'no-snapshot-apart'))).toEqual({ price_candles: 0, price_coverage: 0, price_routes: 0, price_pairs: 0 });
  }, 180_000);
});
