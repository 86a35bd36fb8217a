import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentProgress } from '../src/extract/progress.js';
import { loadPipeline } from '../src/pipeline/load.js';
import { runPipeline } from '../src/pipeline/run-pipeline.js';
import { CANDLE_RATE_PER_SECOND, CANDLES_PER_PAGE, HOUR_MS } from '../src/prices/candles.js';
import { generateDataset } from '../src/sim/data/dataset.js';
import { STREAMS } from '../src/streams/index.js';
import { silentLogger } from '../src/util/logger.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { rateLimitBound, type BoundOptions } from './extract-bound.js';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface YearEndMeasurement {
  wallSeconds: number;
  /** The slowest stream's fewest requests over its rate. */
  extractBoundSeconds: number;
  /** Every symbol's fewest candle requests (its hours over 200) plus one per unlisted pair asked, over 20 a second. */
  candleBoundSeconds: number;
  candleFewestRequests: number;
  /** The transform, the prices read after it and the export, as measured in this run. */
  afterExtractSeconds: number;
  stageSeconds: Record<string, number>;
  /** wallSeconds / (max(extract bound, candle bound) + afterExtractSeconds). */
  ratio: number;
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
 * simulator in its own process at the platform's real limits, beside its bound: the slower of the extraction's
 * bound and the candles' (the public endpoint's 20 requests a second), plus the transform and export this run
 * measured.
 */
export async function measureYearEnd(options: BoundOptions): Promise<YearEndMeasurement> {
  const from = Date.parse(`${options.from}T00:00:00Z`);
  const to = Date.parse(`${options.to}T00:00:00Z`);
  const dataset = generateDataset({ seed: options.seed, from, to, records: options.records, marginWindowDays: 366 });
  const extractBoundSeconds = Math.max(...Object.values(rateLimitBound(dataset, STREAMS, from, to)).map((b) => b.boundSeconds));
  const { child, info } = await spawnSimulator({ records: options.records, rateScale: 1, startTimeoutMs: 60_000, seed: options.seed, from: options.from, to: options.to });
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-year-end-'));
  const dbPath = join(dir, 'bench.duckdb');
  try {
    const started = performance.now();
    const result = await runPipeline({
      pipeline: await loadPipeline('year-end'),
      accounts: [{ name: 'bench', baseUrl: info.baseUrl, credentials: info }],
      dbPath,
      out: join(dir, 'out'),
      range: { kind: 'window', window: { start: from, end: to } },
      given: { fiat: 'EUR', timeZone: 'UTC' },
      log: silentLogger,
      progress: silentProgress,
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const candleFewestRequests = await fewestCandleRequests(dbPath, to - from);
    const candleBoundSeconds = candleFewestRequests / CANDLE_RATE_PER_SECOND;
    const seconds = result.stageSeconds;
    const afterExtractSeconds = (seconds.transform ?? 0) + (seconds.prices ?? 0) + (seconds.export ?? 0);
    const bound = Math.max(extractBoundSeconds, candleBoundSeconds);
    const total = result.accounts.reduce((sum, a) => ({ requests: sum.requests + a.extract.total.requests, rateLimited: sum.rateLimited + a.extract.total.rateLimited }), { requests: 0, rateLimited: 0 });
    return {
      wallSeconds,
      extractBoundSeconds,
      candleBoundSeconds,
      candleFewestRequests,
      afterExtractSeconds,
      stageSeconds: { ...seconds },
      ratio: wallSeconds / (bound + afterExtractSeconds),
      extractRatio: (seconds.extract ?? 0) / bound,
      ...total,
      candleRequests: result.prices?.requests ?? 0,
      candleRateLimited: result.prices?.rateLimited ?? 0,
      files: result.exports.length,
    };
  } finally {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The fewest candle requests of what the run read: per symbol read, its range's hours over 200; per unlisted pair, one. */
async function fewestCandleRequests(dbPath: string, rangeMs: number): Promise<number> {
  const warehouse = await openWarehouse(dbPath);
  try {
    const row = (await warehouse.connection.runAndReadAll(`SELECT (SELECT count(DISTINCT symbol) FROM price_coverage), (SELECT count(*) FROM price_pairs WHERE NOT listed)`)).getRows()[0];
    const [symbols, unlisted] = [Number(row?.[0] ?? 0), Number(row?.[1] ?? 0)];
    return symbols * Math.ceil(rangeMs / HOUR_MS / CANDLES_PER_PAGE) + unlisted;
  } finally {
    await warehouse.close();
  }
}
