import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { UsageError } from '../errors/usage-error.js';
import { createRateLimiter, type RateLimiter } from '../extract/rate-limiter.js';
import { LEDGER_SOURCES } from '../models/index.js';
import { CANDLE_RATE_PER_SECOND, CHUNK_MS } from '../prices/candles.js';
import { extractPrices, type PriceOptions, type PriceResult } from '../prices/extract-prices.js';
import { bookedAssets } from '../transform/booked-assets.js';
import { applyValuation, type Valuation } from '../warehouse/values.js';
import type { Window } from '../time/window.js';
import { silentLogger, type Logger } from '../util/logger.js';
import { timestampTz } from '../warehouse/time-values.js';
import { hasTables } from '../warehouse/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The valuation the warehouse's settings say (docs/settings.md): the rates of a file are loaded when it is given. */
export interface ValuationOptions {
  fiat: string | null;
  /** Where the fiat's rates come from: the platform's USDT<fiat> pair, or the rates the warehouse holds. */
  fiatSource: Valuation['fiatSource'];
  timeZone: string;
}

/** The assets the ledger moves in `range`: what the prices stage prices. */
export async function assetsOfRange(warehouse: Warehouse, range: Window): Promise<string[]> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll('SELECT DISTINCT asset FROM ledger WHERE ts >= $from AND ts < $to ORDER BY asset', { from: timestampTz(range.start), to: timestampTz(range.end) }),
  );
  return reader.getRows().map((r) => String(r[0]));
}

/** Makes the views of values for the warehouse's fiat and time zone (docs/values.md), in one transaction. */
export async function prepareValuation(warehouse: Warehouse, options: ValuationOptions): Promise<Valuation> {
  const valuation: Valuation = { fiat: options.fiat, fiatSource: options.fiat === null ? null : options.fiatSource, timeZone: options.timeZone };
  await warehouse.transaction((c) => applyValuation(c, valuation));
  return valuation;
}

/**
 * Per asset, the 200-hour spans before `start` that hold its movements (docs/history.md): the history a cost basis
 * reads needs the values of its acquisitions, not every hour of its years.
 */
export async function historySpans(warehouse: Warehouse, start: number): Promise<Map<string, Window[]>> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll(
      'SELECT asset, list(DISTINCT epoch_ms(ts) // $chunk * $chunk ORDER BY epoch_ms(ts) // $chunk * $chunk) FROM ledger WHERE ts < $start GROUP BY asset ORDER BY asset',
      { start: timestampTz(start), chunk: BigInt(CHUNK_MS) },
    ),
  );
  const spans = new Map<string, Window[]>();
  for (const row of reader.getRowsJS()) {
    const [asset, starts] = row as [string, bigint[]];
    spans.set(asset, starts.map((s) => ({ start: Number(s), end: Math.min(Number(s) + CHUNK_MS, start) })));
  }
  return spans;
}

/** What the prices stage and the prices beside the extraction ask of one stage's options. */
type PricesStageOptions = ValuationOptions & { baseUrl: string; range: Window; present?: number; clock?: () => number; rateScale?: number; ipLimiter?: RateLimiter; log: Logger };

/** extractPrices' options for `assets` (but the fiat itself, worth its amount), with the USDT<fiat> pair when no rates file prices the fiat. */
function priceOptions(warehouse: Warehouse, options: PricesStageOptions, assets: readonly string[], log: Logger): PriceOptions {
  return {
    warehouse,
    baseUrl: options.baseUrl,
    assets: assets.filter((a) => a !== options.fiat),
    range: options.range,
    ...(options.present === undefined ? {} : { present: options.present }),
    ...(options.fiat !== null && options.fiatSource === 'pair' ? { fiatPair: options.fiat } : {}),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    rateScale: options.rateScale ?? 1,
    ...(options.ipLimiter === undefined ? {} : { ipLimiter: options.ipLimiter }),
    log,
  };
}

/** The prices stage: the candles of every asset the range moves (and of USDT<fiat>), then the views of values. */
export async function pricesStage(warehouse: Warehouse, options: PricesStageOptions): Promise<PriceResult> {
  // The assets to price are the ledger's, and the views of values are made over it: a warehouse never
  // transformed has none (`prices` alone after `extract`, or a pipeline file whose stages have prices without
  // transform, refused here after its extraction).
  if (!(await warehouse.exclusive((c) => hasTables(c, ['ledger'])))) {
    throw new UsageError('the warehouse has no ledger yet, and prices are read for the assets it moves: run ledgerpipe extract and transform first, then prices');
  }
  const assets = await assetsOfRange(warehouse, options.range);
  // The fiat is worth its amount: its own history needs no candle (USDT's needs the fiat pair's).
  const history = new Map([...(await historySpans(warehouse, options.range.start))].filter(([asset]) => asset !== options.fiat));
  let result: PriceResult;
  try {
    result = await extractPrices({ ...priceOptions(warehouse, options, assets, options.log), ...(history.size === 0 ? {} : { history }) });
  } catch (error) {
    // Prices are a warning, never a gap (docs/values.md): the values stay empty where no candle was read.
    if (!(error instanceof LedgerpipeError) || error.exit === 'usage') throw error;
    options.log.warn(`prices could not be read (${error.message}); movements without a candle have no value; run ledgerpipe prices again later`);
    result = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  }
  await prepareValuation(warehouse, options);
  return result;
}

/** `result` with the requests, 429s and candles of `more` added: one run's prices read in two parts. */
export function withFiguresOf(result: PriceResult, more: PriceResult): PriceResult {
  return { ...result, requests: result.requests + more.requests, rateLimited: result.rateLimited + more.rateLimited, candles: result.candles + more.candles };
}

/**
 * The least time between two looks into the records loaded (bookedAssets): each runs the type catalog's seeds and a
 * query per stream under the warehouse's queue, some 20-40 ms that the raw writer waits; one a second lets the
 * candles follow the records without slowing their loading.
 */
const LOOK_EVERY_MS = 1_000;

/** The prices read while an extraction runs (pricesBeside); `stop` waits for the reading under way and gives its figures. */
export interface EarlyPrices {
  /** A balance snapshot was loaded: its assets are looked for now. */
  snapshotLoaded(): void;
  /** A page of `stream` was committed, its records in `window`: the assets they book are looked for at the next look. */
  recordsLoaded(stream: string, window: Window): void;
  stop(): Promise<PriceResult>;
}

/** The coins of every per-asset balance snapshot as loaded (read from raw_records: the model is the transform's). */
async function heldAssets(warehouse: Warehouse): Promise<string[]> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll("SELECT DISTINCT upper(coalesce(payload->>'coin', payload->>'marginCoin')) FROM raw_records WHERE stream = 'asset_balances'"),
  );
  return reader.getRows().map((r) => r[0]).filter((a): a is string => typeof a === 'string' && a !== '');
}

/** The assets of the ledger's rows in `range`, from runs before this one; none before the first transform. */
async function ledgerAssets(warehouse: Warehouse, range: Window): Promise<string[]> {
  return warehouse.exclusive(async (c) => {
    if (!(await hasTables(c, ['ledger']))) return [];
    const reader = await c.runAndReadAll('SELECT DISTINCT asset FROM ledger WHERE ts >= $from AND ts < $to', { from: timestampTz(range.start), to: timestampTz(range.end) });
    return reader.getRows().map((r) => String(r[0]));
  });
}

/** The streams whose records the ledger books (src/models/): the others move no asset. */
const BOOKED_STREAMS: ReadonlySet<string> = new Set(LEDGER_SOURCES.map((m) => m.name));

/**
 * Reads candles beside the extraction (docs/values.md, "Where prices come from"): as soon as assets are known,
 * their candles are read under the same per-IP budget, while the records are still being fetched on their own
 * per-key limits. The assets: the ledger's earlier rows in the range, read once; the balance snapshots, those of
 * earlier runs at once and this run's as soon as it is loaded (snapshotLoaded); and the records as they load: each
 * committed page's window (recordsLoaded) is looked into, at most once a second, for the assets the ledger will book
 * from the records typed there (transform/booked-assets.ts), whatever the streams and whether or not an asset is
 * still held. Each asset is read once, one reading after another, under one candle pacer. The prices stage after
 * the transform then reads only what is still missing (spans already read are never asked again), so the candles
 * and files are the ones it would have made alone; holdings of assets held but not moved get their prices too. A
 * failure here is left to that stage, which meets it again and reports it.
 */
export function pricesBeside(warehouse: Warehouse, options: PricesStageOptions): EarlyPrices {
  let stopping = false;
  let wake: () => void = () => {};
  let figures: PriceResult = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  const read = new Set<string>();
  // One pacer for every reading: each reading's own would start with a whole second's requests granted.
  const candleLimiter = createRateLimiter({ perSecond: CANDLE_RATE_PER_SECOND * (options.rateScale ?? 1), clock: options.clock ?? Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) });
  const readAssets = async (assets: readonly string[]): Promise<void> => {
    const fresh = [...new Set(assets)].filter((a) => !read.has(a));
    if (fresh.length === 0 || stopping) return;
    for (const a of fresh) read.add(a);
    try {
      const done = await extractPrices({ ...priceOptions(warehouse, options, fresh, silentLogger), candleLimiter });
      figures = withFiguresOf(figures, done);
    } catch (error) {
      options.log.debug(`prices beside the extraction stopped (${error instanceof Error ? error.message : String(error)}); the prices stage reads them`);
    }
  };
  // Per stream, the span of the windows loaded since the last look, within the range.
  const loaded = new Map<string, Window>();
  let snapshotDue = true;
  let lookingInRecords = true;
  let lastLook = Number.NEGATIVE_INFINITY;
  const lookInRecords = async (): Promise<string[]> => {
    const spans = [...loaded].map(([stream, window]) => ({ stream, window }));
    loaded.clear();
    lastLook = performance.now();
    try {
      return await bookedAssets(warehouse, spans);
    } catch (error) {
      // Looked for no more: the prices stage reads them after the transform, which meets the failure again.
      lookingInRecords = false;
      options.log.debug(`prices beside the extraction no longer look into the records (${error instanceof Error ? error.message : String(error)})`);
      return [];
    }
  };
  /** Until something is to be looked at: a snapshot or records loaded, these no sooner than LOOK_EVERY_MS after the last look. */
  const nextLook = () =>
    new Promise<void>((resolve) => {
      const timer = loaded.size > 0 ? setTimeout(resolve, Math.max(0, lastLook + LOOK_EVERY_MS - performance.now())) : undefined;
      // Woken sooner: the timer goes, so that none keeps a process that has finished waiting.
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    await readAssets(await ledgerAssets(warehouse, options.range).catch(() => []));
    while (!stopping) {
      const assets: string[] = [];
      if (snapshotDue) {
        snapshotDue = false;
        assets.push(...(await heldAssets(warehouse).catch(() => [])));
      }
      if (loaded.size > 0 && performance.now() >= lastLook + LOOK_EVERY_MS) assets.push(...(await lookInRecords()));
      if (assets.some((a) => !read.has(a))) await readAssets(assets);
      else if (!stopping && !snapshotDue) await nextLook();
    }
  })();
  return {
    snapshotLoaded: () => {
      snapshotDue = true;
      wake();
    },
    recordsLoaded: (stream, window) => {
      const start = Math.max(window.start, options.range.start);
      const end = Math.min(window.end, options.range.end);
      if (!lookingInRecords || !BOOKED_STREAMS.has(stream) || start >= end) return;
      const before = loaded.get(stream);
      loaded.set(stream, before === undefined ? { start, end } : { start: Math.min(before.start, start), end: Math.max(before.end, end) });
      wake();
    },
    stop: async () => {
      stopping = true;
      wake();
      await loop;
      return figures;
    },
  };
}
