import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { UsageError } from '../errors/usage-error.js';
import { createRateLimiter, type RateLimiter } from '../extract/rate-limiter.js';
import { LEDGER_SOURCES } from '../tables/index.js';
import { CANDLE_RATE_PER_SECOND, CHUNK_MS } from '../prices/candles.js';
import { isEcbCurrency } from '../prices/ecb-currencies.js';
import { DEFAULT_ECB_URL, readEcbRates, utcDay } from '../prices/ecb-rates.js';
import { extractPrices, type FiatValued, type PriceOptions, type PriceResult } from '../prices/extract-prices.js';
import { bookedAssets } from '../transform/booked-assets.js';
import { recordSetting } from '../warehouse/settings.js';
import { applyValuation, type Valuation } from '../warehouse/values.js';
import type { Window } from '../time/window.js';
import { silentLogger, type Logger } from '../util/logger.js';
import { timestampTz } from '../duckdb/time-values.js';
import { hasTables } from '../duckdb/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The valuation the warehouse's settings say (docs/settings.md): the rates of a file are loaded when it is given. */
export interface ValuationOptions {
  fiat: string | null;
  /**
   * Where the fiat's rates come from: the platform's USDT<fiat> pair, USDTEUR and the ECB's rates, or a rates file's.
   */
  fiatSource: Valuation['fiatSource'];
  timeZone: string;
}

/** The assets the ledger moves in `range`: what the prices stage prices. */
export async function assetsOfRange(warehouse: Warehouse, range: Window): Promise<string[]> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll('SELECT DISTINCT asset FROM ledger WHERE ts >= $from AND ts < $to ORDER BY asset', {
      from: timestampTz(range.start),
      to: timestampTz(range.end),
    }),
  );
  return reader.getRows().map((r) => String(r[0]));
}

/** Makes the views of values for the warehouse's fiat and time zone (docs/values.md), in one transaction. */
export async function prepareValuation(warehouse: Warehouse, options: ValuationOptions): Promise<Valuation> {
  const valuation: Valuation = {
    fiat: options.fiat,
    fiatSource: options.fiat === null ? null : options.fiatSource,
    timeZone: options.timeZone,
  };
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
    spans.set(
      asset,
      starts.map((s) => ({ start: Number(s), end: Math.min(Number(s) + CHUNK_MS, start) })),
    );
  }
  return spans;
}

/** What the prices stage and the prices beside the extraction ask of one stage's options. */
type PricesStageOptions = ValuationOptions & {
  baseUrl: string;
  /** The ECB's data service, for a fiat valued through the euro (default DEFAULT_ECB_URL). */
  ecbUrl?: string;
  /** The command, as settings name who set what (`run year-end`; default `prices`). */
  command?: string;
  range: Window;
  present?: number;
  clock?: () => number;
  rateScale?: number;
  ipLimiter?: RateLimiter;
  log: Logger;
};

/**
 * extractPrices' options for `assets` (but the fiat itself, worth its amount), with the fiat's pair when no rates
 * file prices it: USDT<fiat>, else USDTEUR when the ECB publishes the fiat (docs/values.md, "A fiat").
 */
function priceOptions(
  warehouse: Warehouse,
  options: PricesStageOptions,
  assets: readonly string[],
  log: Logger,
): PriceOptions {
  const { fiat } = options;
  return {
    warehouse,
    baseUrl: options.baseUrl,
    assets: assets.filter((a) => a !== fiat),
    range: options.range,
    ...(options.present === undefined ? {} : { present: options.present }),
    ...(fiat !== null && options.fiatSource !== 'file'
      ? { fiat: { currency: fiat, throughEur: isEcbCurrency(fiat) } }
      : {}),
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
    throw new UsageError(
      'the warehouse has no ledger yet, and prices are read for the assets it moves: run ledgerpipe extract and transform first, then prices',
    );
  }
  const assets = await assetsOfRange(warehouse, options.range);
  // The fiat is worth its amount: its own history needs no candle (USDT's needs the fiat pair's).
  const history = new Map(
    [...(await historySpans(warehouse, options.range.start))].filter(([asset]) => asset !== options.fiat),
  );
  let result: PriceResult;
  try {
    result = await extractPrices({
      ...priceOptions(warehouse, options, assets, options.log),
      ...(history.size === 0 ? {} : { history }),
    });
  } catch (error) {
    // Prices are a warning, never a gap (docs/values.md): the values stay empty where no candle was read.
    if (!(error instanceof LedgerpipeError) || error.exit === 'usage') throw error;
    options.log.warn(
      `prices could not be read (${error.message}); movements without a candle have no value; run ledgerpipe prices again later`,
    );
    result = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  }
  const fiat = await valueFiat(warehouse, options, result, history);
  await prepareValuation(warehouse, { ...options, fiatSource: fiat?.source ?? options.fiatSource });
  return fiat === undefined ? result : { ...result, fiat };
}

/**
 * How the fiat is valued, as the platform's answers decided it (docs/values.md, "A fiat"): by its USDT<fiat> pair
 * (`pair`), or through USDTEUR and the ECB's euro rates (`ecb`), recorded as the warehouse's fiat_source when it
 * changes (docs/settings.md); with `ecb`, the ECB's rates of the days the range and its history move in are read
 * first. The ECB out of reach is a warning: the days without a rate have no value, listed, never guessed.
 */
async function valueFiat(
  warehouse: Warehouse,
  options: PricesStageOptions,
  result: PriceResult,
  history: ReadonlyMap<string, readonly Window[]>,
): Promise<FiatValued | undefined> {
  const { fiat } = options;
  if (fiat === null || options.fiatSource === 'file' || options.fiatSource === null) return undefined;
  const decided =
    result.fiatPair === undefined ? options.fiatSource : result.fiatPair === `USDT${fiat}` ? 'pair' : 'ecb';
  const now = (options.clock ?? Date.now)();
  if (decided !== options.fiatSource) {
    await warehouse.transaction((c) =>
      recordSetting(c, 'fiatSource', decided, { now, command: options.command ?? 'prices' }),
    );
    options.log.info(
      decided === 'ecb'
        ? `fiat ${fiat}: the platform lists no USDT${fiat} pair; values in ${fiat} go through USDTEUR and the European Central Bank's euro rates (docs/values.md)`
        : `fiat ${fiat}: the platform lists USDT${fiat}; values in ${fiat} go by its candles (docs/values.md)`,
    );
  }
  const valued: FiatValued = {
    currency: fiat,
    source: decided,
    ...(result.fiatPair === undefined ? {} : { pair: result.fiatPair }),
  };
  if (decided !== 'ecb') return valued;
  const starts = [options.range.start, ...[...history.values()].flatMap((spans) => spans.map((s) => s.start))];
  const end = Math.min(options.range.end, options.present ?? now, now);
  const days = { first: utcDay(Math.min(...starts)), last: utcDay(Math.max(end, options.range.start + 1) - 1) };
  try {
    const read = await readEcbRates({
      warehouse,
      baseUrl: options.ecbUrl ?? DEFAULT_ECB_URL,
      currency: fiat,
      days,
      now,
    });
    return { ...valued, ecb: read };
  } catch (error) {
    if (!(error instanceof LedgerpipeError)) throw error;
    options.log.warn(
      `the European Central Bank's euro rates of ${fiat} could not be read (${error.message}); movements of days without a rate have no value in ${fiat}; run ledgerpipe prices again later`,
    );
    return { ...valued, ecb: { requests: 0, rates: 0, failed: error.message } };
  }
}

/** `result` with the requests, 429s and candles of `more` added: one run's prices read in two parts. */
export function withFiguresOf(result: PriceResult, more: PriceResult): PriceResult {
  return {
    ...result,
    requests: result.requests + more.requests,
    rateLimited: result.rateLimited + more.rateLimited,
    candles: result.candles + more.candles,
  };
}

/**
 * The least time between two looks into the records loaded (bookedAssets): each runs the type catalog's seeds and a
 * query per stream under the warehouse's queue, some 20-40 ms that the raw writer waits; one a second lets the
 * candles follow the records without slowing their loading.
 */
const LOOK_EVERY_MS = 1_000;

/**
 * The prices read while an extraction runs (pricesBeside); `stop` waits for the reading under way and gives its
 * figures.
 */
export interface EarlyPrices {
  /** A balance snapshot was loaded: its assets are looked for now. */
  snapshotLoaded(): void;
  /**
   * A page of `stream` was committed, its records in `window`: the assets they book are looked for at the next look.
   */
  recordsLoaded(stream: string, window: Window): void;
  stop(): Promise<PriceResult>;
}

/**
 * The candles the prices beside the extraction read: each asset once, one reading after another, under one candle
 * pacer.
 */
interface CandleReader {
  /** Reads the candles of those of `assets` not read before; nothing once the prices beside are stopping. */
  read(assets: readonly string[]): Promise<void>;
  /** Whether `asset` was read, or is being read. */
  has(asset: string): boolean;
  /** The requests, 429s and candles of every reading so far. */
  figures(): PriceResult;
}

/** The CandleReader of pricesBeside; a reading that fails is left to the prices stage, which meets it again. */
function candleReader(warehouse: Warehouse, options: PricesStageOptions, stopping: () => boolean): CandleReader {
  let figures: PriceResult = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  const read = new Set<string>();
  // One pacer for every reading: each reading's own would start with a whole second's requests granted.
  const candleLimiter = createRateLimiter({
    perSecond: CANDLE_RATE_PER_SECOND * (options.rateScale ?? 1),
    clock: options.clock ?? Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  return {
    read: async (assets) => {
      const fresh = [...new Set(assets)].filter((a) => !read.has(a));
      if (fresh.length === 0 || stopping()) return;
      for (const a of fresh) read.add(a);
      try {
        const done = await extractPrices({ ...priceOptions(warehouse, options, fresh, silentLogger), candleLimiter });
        figures = withFiguresOf(figures, done);
      } catch (error) {
        options.log.debug(
          `prices beside the extraction stopped (${error instanceof Error ? error.message : String(error)}); the prices stage reads them`,
        );
      }
    },
    has: (asset) => read.has(asset),
    figures: () => figures,
  };
}

/** The coins of every per-asset balance snapshot as loaded (read from raw_records: the model is the transform's). */
async function heldAssets(warehouse: Warehouse): Promise<string[]> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll(
      "SELECT DISTINCT upper(coalesce(payload->>'coin', payload->>'marginCoin')) FROM raw_records WHERE stream = 'asset_balances'",
    ),
  );
  return reader
    .getRows()
    .map((r) => r[0])
    .filter((a): a is string => typeof a === 'string' && a !== '');
}

/** The assets of the ledger's rows in `range`, from runs before this one; none before the first transform. */
async function ledgerAssets(warehouse: Warehouse, range: Window): Promise<string[]> {
  return warehouse.exclusive(async (c) => {
    if (!(await hasTables(c, ['ledger']))) return [];
    const reader = await c.runAndReadAll('SELECT DISTINCT asset FROM ledger WHERE ts >= $from AND ts < $to', {
      from: timestampTz(range.start),
      to: timestampTz(range.end),
    });
    return reader.getRows().map((r) => String(r[0]));
  });
}

/** The streams whose records the ledger books (src/tables/): the others move no asset. */
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
  const candles = candleReader(warehouse, options, () => stopping);
  const records = recordsLooker(warehouse, options);
  let snapshotDue = true;
  /**
   * Until something is to be looked at: a snapshot or records loaded, these no sooner than LOOK_EVERY_MS after the last
   * look.
   */
  const nextLook = () =>
    new Promise<void>((resolve) => {
      const wait = records.waitMs();
      const timer = wait === undefined ? undefined : setTimeout(resolve, wait);
      // Woken sooner: the timer goes, so that none keeps a process that has finished waiting.
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    await candles.read(await ledgerAssets(warehouse, options.range).catch(() => []));
    while (!stopping) {
      const assets: string[] = [];
      if (snapshotDue) {
        snapshotDue = false;
        assets.push(...(await heldAssets(warehouse).catch(() => [])));
      }
      if (records.due()) assets.push(...(await records.look()));
      if (assets.some((a) => !candles.has(a))) await candles.read(assets);
      else if (!stopping && !snapshotDue) await nextLook();
    }
  })();
  return {
    snapshotLoaded: () => {
      snapshotDue = true;
      wake();
    },
    recordsLoaded: (stream, window) => {
      if (records.loaded(stream, window)) wake();
    },
    stop: async () => {
      stopping = true;
      wake();
      await loop;
      return candles.figures();
    },
  };
}

/** The records pricesBeside looks into for the assets they book: the windows loaded since its last look. */
interface RecordsLooker {
  /** Notes a committed page of `stream` over `window`; false when there is nothing in it to look at. */
  loaded(stream: string, window: Window): boolean;
  /** Windows wait, and the last look was LOOK_EVERY_MS ago or more. */
  due(): boolean;
  /** How long until the windows waiting may be looked into; undefined when none waits. */
  waitMs(): number | undefined;
  /** The assets the ledger will book from the records of the windows waiting (transform/booked-assets.ts). */
  look(): Promise<string[]>;
}

/** The RecordsLooker of pricesBeside, over the windows of the streams the ledger books, within the range. */
function recordsLooker(warehouse: Warehouse, options: PricesStageOptions): RecordsLooker {
  // Per stream, the span of the windows loaded since the last look, within the range.
  const loaded = new Map<string, Window>();
  let looking = true;
  let lastLook = Number.NEGATIVE_INFINITY;
  return {
    loaded: (stream, window) => {
      const start = Math.max(window.start, options.range.start);
      const end = Math.min(window.end, options.range.end);
      if (!looking || !BOOKED_STREAMS.has(stream) || start >= end) return false;
      const before = loaded.get(stream);
      loaded.set(
        stream,
        before === undefined
          ? { start, end }
          : { start: Math.min(before.start, start), end: Math.max(before.end, end) },
      );
      return true;
    },
    due: () => loaded.size > 0 && performance.now() >= lastLook + LOOK_EVERY_MS,
    waitMs: () => (loaded.size > 0 ? Math.max(0, lastLook + LOOK_EVERY_MS - performance.now()) : undefined),
    look: async () => {
      const spans = [...loaded].map(([stream, window]) => ({ stream, window }));
      loaded.clear();
      lastLook = performance.now();
      try {
        return await bookedAssets(warehouse, spans);
      } catch (error) {
        // Looked for no more: the prices stage reads them after the transform, which meets the failure again.
        looking = false;
        options.log.debug(
          `prices beside the extraction no longer look into the records (${error instanceof Error ? error.message : String(error)})`,
        );
        return [];
      }
    },
  };
}
