import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf } from '../../src/prices/candles.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { assetBalances } from '../../src/streams/asset-balances.js';
import { STREAMS } from '../../src/streams/index.js';
import { futuresTaxRecords } from '../../src/streams/tax-records.js';
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
  sim = await startSimulator({
    seed: 'beside',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 3, 1),
    records: 300,
    rateScale: 20,
    pendingMs: 0,
    onRequest: ({ path }) => requests.push({ path, at: performance.now() }),
  });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (db: string, ...args: string[]) =>
  runCliHere(
    [
      ...args,
      '--base-url',
      sim.baseUrl,
      '--db',
      join(dir, db),
      '--out',
      join(dir, `out-${db}`),
      '--rate-scale',
      '20',
      '--fiat',
      'EUR',
      '--quiet',
    ],
    { env: simEnv(sim.credentials) },
  );

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

    for (const stage of [
      ['extract', ...RANGE],
      ['transform'],
      ['prices', ...RANGE],
      ['export', ...RANGE, '--format', 'csv,koinly,cointracking'],
    ]) {
      const one = await cli('apart', ...stage);
      expect([stage[0], one.status, one.stderr]).toEqual([stage[0], 0, '']);
    }
    for (const file of ['ledger_valued.csv', 'year_summary.csv', 'koinly.csv', 'cointracking.csv']) {
      expect(
        (await readFile(join(dir, 'out-together', file))).equals(await readFile(join(dir, 'out-apart', file))),
        file,
      ).toBe(true);
    }
  }, 120_000);
});

// The candles follow the records as they load (docs/values.md, "Where prices come from"), whatever the snapshot
// says: each asset's candles of the range are asked before the last record is, asked once, and the files and price
// tables are those of the stages run one after another. A door in front of the simulator keeps the run's slowest
// stream waiting until the candles the test expects are asked (or 10 s): the order holds however busy the machine,
// and a reader that asks them only after the extraction is found out, by the order the simulator sees.
const FOLLOW_RATE = '2';
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 3, 1);
/** The futures tax records: 1 request a second, the stream that ends a quarter's extraction. */
const HELD_PATH = futuresTaxRecords.path;
const HELD_AT_MOST_MS = 10_000;
const RECORD_PATHS: ReadonlySet<string> = new Set(STREAMS.filter((s) => s.kind === 'paged').map((s) => s.path));
const SNAPSHOT_PATHS: ReadonlySet<string> = new Set(assetBalances.parts.map((p) => p.path));
const WITHOUT_SNAPSHOT = STREAMS.filter((s) => s.name !== assetBalances.name)
  .map((s) => s.name)
  .join(',');
const SPANS = chunksOf({ start: FROM, end: TO }).length;

interface Asked {
  path: string;
  symbol: string | null;
  endTime: number;
  at: number;
}

/** Per symbol, how many of `candles` ask for it. */
function perSymbol(candles: readonly Asked[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of candles) counts[c.symbol as string] = (counts[c.symbol as string] ?? 0) + 1;
  return counts;
}

/** The requests for the range's candles (the history's, before FROM, are read after the transform). */
const rangeCandles = (asked: readonly Asked[]) => asked.filter((a) => a.path === CANDLES && a.endTime > FROM);

/**
 * A door in front of `sim` on 127.0.0.1 (an ephemeral port): every request is passed on and noted in `asked` as it
 * is, but the futures tax records' wait until every symbol of `expected` has had its range's spans asked, or
 * HELD_AT_MOST_MS (well inside the client's 30 s and the simulator's timestamp check).
 */
async function heldDoor(
  sim: Simulator,
  asked: Asked[],
  expected: readonly string[],
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(sim.baseUrl);
  const ready = () => {
    const counts = perSymbol(rangeCandles(asked));
    return expected.every((symbol) => (counts[symbol] ?? 0) >= SPANS);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', sim.baseUrl);
    void (async () => {
      const until = performance.now() + HELD_AT_MOST_MS;
      while (url.pathname === HELD_PATH && !ready() && performance.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      asked.push({
        path: url.pathname,
        symbol: url.searchParams.get('symbol'),
        endTime: Number(url.searchParams.get('endTime')),
        at: performance.now(),
      });
      const out = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What the simulator was asked: the candle symbols; per symbol, the range's spans asked, all and before the last
 * record request; and any span asked twice.
 */
function candleTimeline(asked: readonly Asked[]): {
  symbols: string[];
  range: Record<string, number>;
  beforeLastRecord: Record<string, number>;
  repeated: string[];
} {
  const lastRecord = Math.max(...asked.filter((a) => RECORD_PATHS.has(a.path)).map((a) => a.at));
  const candles = asked.filter((a) => a.path === CANDLES);
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const c of candles) {
    const key = `${c.symbol} ${c.endTime}`;
    if (seen.has(key)) repeated.push(key);
    seen.add(key);
  }
  const range = rangeCandles(asked);
  return {
    symbols: [...new Set(candles.map((c) => c.symbol as string))].sort(),
    range: perSymbol(range),
    beforeLastRecord: perSymbol(range.filter((c) => c.at < lastRecord)),
    repeated,
  };
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
      const sql = (x: string, y: string) =>
        `SELECT count(*) FROM (SELECT ${columns} FROM ${x}.${table} EXCEPT ALL SELECT ${columns} FROM ${y}.${table})`;
      apart[table] =
        Number((await c.runAndReadAll(sql('a', 'b'))).getRows()[0]?.[0]) +
        Number((await c.runAndReadAll(sql('b', 'a'))).getRows()[0]?.[0]);
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
  const sims: Simulator[] = [];
  const doors: { close(): Promise<void> }[] = [];
  // Requests stamped as they arrive (front): the run's own pauses in this process must not bunch them into 429s.
  const simulator = async (options: Partial<SimulatorOptions>) => {
    const sim = await startSimulator({
      from: FROM,
      to: TO,
      rateScale: Number(FOLLOW_RATE),
      pendingMs: 0,
      front: true,
      ...options,
    });
    sims.push(sim);
    return sim;
  };
  const door = async (sim: Simulator, expected: readonly string[]) => {
    const d = await heldDoor(sim, asked, expected);
    doors.push(d);
    return d.baseUrl;
  };
  afterAll(async () => {
    for (const d of doors) await d.close();
    for (const sim of sims) await sim.close();
  });

  const follow = (sim: Simulator, baseUrl: string, db: string, ...args: string[]) =>
    runCliHere(
      [
        ...args,
        '--base-url',
        baseUrl,
        '--db',
        join(dir, db),
        '--out',
        join(dir, `out-${db}`),
        '--rate-scale',
        FOLLOW_RATE,
        '--fiat',
        'EUR',
        '--quiet',
      ],
      { env: simEnv(sim.credentials) },
    );

  it('reads the candles of coins no longer held, which the snapshot does not list, before the last record is read', async () => {
    const soldOff = await simulator({
      dataset: 'retail',
      seed: 'follow',
      openedAt: FROM - 5 * 86_400_000,
      soldOff: true,
    });
    const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'USDTEUR'];
    asked.length = 0;
    const run = await follow(soldOff, await door(soldOff, symbols), 'sold-off', 'run', 'year-end', ...RANGE);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const csv = (sql: string) => queryCsv(join(dir, 'sold-off'), sql);
    expect(await csv('SELECT DISTINCT asset FROM asset_balances WHERE asset IS NOT NULL ORDER BY asset')).toBe(
      'asset\nUSDT\n',
    );
    expect(
      await csv("SELECT DISTINCT asset FROM ledger WHERE ts >= '2025-01-01' AND ts < '2025-04-01' ORDER BY asset"),
    ).toBe('asset\nBTC\nETH\nSOL\nUSDT\n');
    const timeline = candleTimeline(asked);
    expect(timeline.symbols).toEqual(symbols);
    // Every span of the range of each, asked once, and before the last record: none left for the prices stage after
    // the transform.
    const all = Object.fromEntries(symbols.map((s) => [s, SPANS]));
    expect(timeline.range).toEqual(all);
    expect(timeline.beforeLastRecord).toEqual(all);
    expect(timeline.repeated).toEqual([]);
  }, 120_000);

  it('reads them with --streams without asset_balances too, and writes the files and price tables of the stages one after another', async () => {
    const stress = await simulator({ seed: 'follow', records: 300 });
    const symbols = ['BGBUSDT', 'BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'USDCUSDT', 'USDTEUR', 'XRPUSDT'];
    const baseUrl = await door(stress, symbols);
    asked.length = 0;
    const run = await follow(
      stress,
      baseUrl,
      'no-snapshot',
      'run',
      'year-end',
      ...RANGE,
      '--streams',
      WITHOUT_SNAPSHOT,
    );
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(asked.filter((a) => SNAPSHOT_PATHS.has(a.path))).toEqual([]);
    const timeline = candleTimeline(asked);
    expect(timeline.symbols).toEqual(symbols);
    const all = Object.fromEntries(symbols.map((s) => [s, SPANS]));
    expect(timeline.range).toEqual(all);
    expect(timeline.beforeLastRecord).toEqual(all);
    expect(timeline.repeated).toEqual([]);

    for (const stage of [
      ['extract', ...RANGE, '--streams', WITHOUT_SNAPSHOT],
      ['transform'],
      ['prices', ...RANGE],
      ['export', ...RANGE, '--format', 'csv,parquet,koinly,cointracking'],
    ]) {
      const one = await follow(stress, stress.baseUrl, 'no-snapshot-apart', ...stage);
      expect([stage[0], one.status, one.stderr]).toEqual([stage[0], 0, '']);
    }
    for (const file of [
      'ledger_valued.csv',
      'ledger_valued.parquet',
      'year_summary.csv',
      'disposals.csv',
      'koinly.csv',
      'cointracking.csv',
    ]) {
      expect(
        (await readFile(join(dir, 'out-no-snapshot', file))).equals(
          await readFile(join(dir, 'out-no-snapshot-apart', file)),
        ),
        file,
      ).toBe(true);
    }
    expect(await priceTablesApart(join(dir, 'no-snapshot'), join(dir, 'no-snapshot-apart'))).toEqual({
      price_candles: 0,
      price_coverage: 0,
      price_routes: 0,
      price_pairs: 0,
    });
  }, 180_000);
});
