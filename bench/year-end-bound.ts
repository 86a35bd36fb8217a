import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentProgress } from '../src/extract/progress.js';
import { loadPipeline } from '../src/pipeline/load.js';
import { runPipeline } from '../src/pipeline/run-pipeline.js';
import { CANDLE_RATE_PER_SECOND, CANDLES_PER_PAGE, HOUR_MS } from '../src/prices/candles.js';
import { generateDataset } from '../src/sim/data/dataset.js';
import type { Dataset } from '../src/sim/data/types.js';
import { startSimulator } from '../src/sim/server.js';
import { assetBalances } from '../src/streams/asset-balances.js';
import { STREAMS } from '../src/streams/index.js';
import { streamsForAccount } from '../src/streams/stream.js';
import { silentLogger } from '../src/util/logger.js';
import type { Window } from '../src/time/window.js';
import { timestampTz } from '../src/duckdb/time-values.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { rateLimitBound, type BoundOptions } from './extract-bound.js';
import { spawnSimulator, stopChild } from './sim-process.js';

const DAY_MS = 86_400_000;

/** Which year-end: the account, and whether the run reads the per-asset balance snapshot. */
export interface YearEndOptions extends BoundOptions {
  /**
   * `stress` (default): the simulator's stress account of `records` fills, in a process of its own; it holds every
   * asset of its year at the end. `sold-off`: the retail account with the simulator's option soldOff, registered 5
   * days before the range as the stress account is, which sells every coin for USDT before the range's end: its
   * snapshot lists USDT alone. In this process (the simulator option has no flag), its requests stamped at a front
   * door of their own thread (src/sim/front.ts).
   */
  account?: 'stress' | 'sold-off';
  /** false: every stream but asset_balances, as `--streams` without it (default true). */
  snapshot?: boolean;
}

/** A simulator serving the year-end's account, its data, and how to stop it. */
interface Served {
  baseUrl: string;
  credentials: { apiKey: string; secretKey: string; passphrase: string };
  dataset: Dataset;
  stop(): Promise<void>;
}

async function serve(options: YearEndOptions, from: number, to: number): Promise<Served> {
  if (options.account === 'sold-off') {
    // Requests stamped as they arrive (front): the run's own pauses in this process must not bunch them at the limits.
    const sim = await startSimulator({
      dataset: 'retail',
      seed: options.seed,
      from,
      to,
      openedAt: from - 5 * DAY_MS,
      soldOff: true,
      rateScale: 1,
      front: true,
    });
    return { baseUrl: sim.baseUrl, credentials: sim.credentials, dataset: sim.dataset, stop: () => sim.close() };
  }
  const dataset = generateDataset({ seed: options.seed, from, to, records: options.records, marginWindowDays: 366 });
  const { child, info } = await spawnSimulator({
    records: options.records,
    rateScale: 1,
    startTimeoutMs: 60_000,
    seed: options.seed,
    from: options.from,
    to: options.to,
  });
  return { baseUrl: info.baseUrl, credentials: info, dataset, stop: () => stopChild(child) };
}

export interface YearEndMeasurement {
  wallSeconds: number;
  /** The slowest stream's fewest requests over its rate. */
  extractBoundSeconds: number;
  /**
   * Every symbol's fewest candle requests (its range's hours over 200), one per 200-hour span of the history read
   * (docs/history.md) and one per unlisted pair asked, over 20 a second.
   */
  candleBoundSeconds: number;
  candleFewestRequests: number;
  /** The transform, the prices read after it and the export, as measured in this run. */
  afterExtractSeconds: number;
  stageSeconds: Record<string, number>;
  /** wallSeconds / (max(extract bound, candle bound) + afterExtractSeconds). */
  ratio: number;
  /**
   * (wallSeconds - transform - export) / max(extract bound, candle bound): the prices read after the transform count
   * against it, as every candle is one the bound counts.
   */
  boundRatio: number;
  /**
   * (extract + prices after) / the larger bound: the reading of records and candles alone, without opening and closing
   * the warehouse.
   */
  readingRatio: number;
  /** The extraction stage (with the candles read beside it) over the larger bound. */
  extractRatio: number;
  requests: number;
  rateLimited: number;
  candleRequests: number;
  candleRateLimited: number;
  files: number;
}

/**
 * `run year-end` of one account as a user runs it (extraction, transform, prices, every file), against a
 * simulator at the platform's real limits, beside its bound: the slower of the extraction's bound (of the streams
 * it reads) and the candles' (the public endpoint's 20 requests a second), plus the transform and export this run
 * measured.
 */
export async function measureYearEnd(options: YearEndOptions): Promise<YearEndMeasurement> {
  const from = Date.parse(`${options.from}T00:00:00Z`);
  const to = Date.parse(`${options.to}T00:00:00Z`);
  const streams = options.snapshot === false ? STREAMS.filter((s) => s.name !== assetBalances.name) : [...STREAMS];
  const served = await serve(options, from, to);
  // The run reads the streams that carry lots from the account's opening (docs/history.md): so does the bound. Of
  // the streams, those the simulator's classic account is read with, as the run reads them (a unified account's,
  // the copy projects' and a lead trader's are not its).
  const read = streamsForAccount(streams, 'classic', undefined);
  const extractBoundSeconds = Math.max(
    ...Object.values(rateLimitBound(served.dataset, read, from, to, served.dataset.openedAt)).map(
      (b) => b.boundSeconds,
    ),
  );
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-year-end-'));
  const dbPath = join(dir, 'bench.duckdb');
  try {
    const started = performance.now();
    const result = await runPipeline({
      pipeline: await loadPipeline('year-end'),
      accounts: [{ name: 'bench', baseUrl: served.baseUrl, credentials: served.credentials }],
      dbPath,
      out: join(dir, 'out'),
      range: { kind: 'window', window: { start: from, end: to } },
      given: { fiat: 'EUR', timeZone: 'UTC' },
      log: silentLogger,
      progress: silentProgress,
      ...(options.snapshot === false ? { streams } : {}),
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const candleFewestRequests = await fewestCandleRequests(dbPath, { start: from, end: to });
    const candleBoundSeconds = candleFewestRequests / CANDLE_RATE_PER_SECOND;
    const seconds = result.stageSeconds;
    const afterExtractSeconds = (seconds.transform ?? 0) + (seconds.prices ?? 0) + (seconds.export ?? 0);
    const bound = Math.max(extractBoundSeconds, candleBoundSeconds);
    const total = result.accounts.reduce(
      (sum, a) => ({
        requests: sum.requests + a.extract.total.requests,
        rateLimited: sum.rateLimited + a.extract.total.rateLimited,
      }),
      { requests: 0, rateLimited: 0 },
    );
    return {
      wallSeconds,
      extractBoundSeconds,
      candleBoundSeconds,
      candleFewestRequests,
      afterExtractSeconds,
      stageSeconds: { ...seconds },
      ratio: wallSeconds / (bound + afterExtractSeconds),
      boundRatio: (wallSeconds - (seconds.transform ?? 0) - (seconds.export ?? 0)) / bound,
      readingRatio: ((seconds.extract ?? 0) + (seconds.prices ?? 0)) / bound,
      extractRatio: (seconds.extract ?? 0) / bound,
      ...total,
      candleRequests: result.prices?.requests ?? 0,
      candleRateLimited: result.prices?.rateLimited ?? 0,
      files: result.exports.length,
    };
  } finally {
    await served.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The fewest candle requests of what the run read: per symbol read in the range, its range's hours over 200; per
 * span of the history read, one; per unlisted pair, one.
 */
async function fewestCandleRequests(dbPath: string, range: Window): Promise<number> {
  const warehouse = await openWarehouse(dbPath);
  try {
    const row = (
      await warehouse.connection.runAndReadAll(
        `SELECT (SELECT count(DISTINCT symbol) FROM price_coverage WHERE window_end > $from), (SELECT count(*) FROM price_coverage WHERE window_end <= $from),
          (SELECT count(*) FROM price_pairs WHERE NOT listed)`,
        { from: timestampTz(range.start) },
      )
    ).getRows()[0];
    const [symbols, history, unlisted] = [Number(row?.[0] ?? 0), Number(row?.[1] ?? 0), Number(row?.[2] ?? 0)];
    return symbols * Math.ceil((range.end - range.start) / HOUR_MS / CANDLES_PER_PAGE) + history + unlisted;
  } finally {
    await warehouse.close();
  }
}
