import type { DuckDBConnection } from '@duckdb/node-api';
import type { FiatSource } from '../tables/settings.js';
import { PlatformError } from '../errors/platform-error.js';
import { UsageError } from '../errors/usage-error.js';
import { createFetcher } from '../extract/fetcher.js';
import { underBudget } from '../extract/ip-budget.js';
import { createRateLimiter, type RateLimiter } from '../extract/rate-limiter.js';
import { emptyStreamStats, type StreamStats } from '../extract/stats.js';
import { createSignedClient, type SignedClient } from '../http/client.js';
import { DEFAULT_RETRY } from '../http/retry.js';
import { uncovered, type Window } from '../time/window.js';
import type { Logger } from '../util/logger.js';
import { runPool } from '../util/work-pool.js';
import { runModel } from '../warehouse/sql-graph.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import {
  CANDLE_RATE_PER_SECOND,
  CANDLES_PER_PAGE,
  candlesSchema,
  chunksOf,
  GRANULARITY,
  HISTORY_CANDLES,
  HOUR_MS,
  readCandles,
  type Candle,
} from './candles.js';
import { routeCandidates, type Route } from './routes.js';
import { createSpanWriter, MISSING_REASON, type SpanRead, type SpanWriter } from './span-writer.js';

/**
 * The platform's answer to a symbol it does not list: `40034 "Parameter XYZUSDT does not exist"` (docs/platform.md,
 * "Prices").
 */
export const NO_SUCH_SYMBOL = '40034';

export interface PriceOptions {
  warehouse: Warehouse;
  baseUrl: string;
  /** The assets to price; USDT is the quote and needs no candles. */
  assets: readonly string[];
  range: Window;
  /**
   * The platform's present, when a run's extraction has measured it (ExtractResult.present): no hour after it is
   * read, as none is on this machine's clock. A machine whose clock runs ahead asked for hours the platform had
   * not reached, and recorded each as missing.
   */
  present?: number;
  /**
   * A fiat valued by the platform's candles (when no rates file was given; docs/values.md, "A fiat"): its
   * USDT<currency> pair, else, `throughEur`, the USDTEUR pair, whose values the ECB's euro rates carry on.
   */
  fiat?: { currency: string; throughEur: boolean };
  /**
   * Before the range: per asset, the 200-hour spans holding its movements (docs/history.md), read for the asset's
   * route and for the fiat's pair: the history's values, without every hour of its years.
   */
  history?: ReadonlyMap<string, readonly Window[]>;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  rateScale?: number;
  /** The process's IP budget for this address (extract/ip-budget.ts): candles count against it too. */
  ipLimiter?: RateLimiter;
  /**
   * The candle endpoint's own pacer (20 requests a second), when readings that follow one another share it (the
   * prices read beside the extraction): a new one grants a whole second's requests at once, after the last
   * reading's. Default: one of this reading's own.
   */
  candleLimiter?: RateLimiter;
  log: Logger;
}

export interface PriceResult {
  /** The route each asset is priced by; undefined when the platform has no pair for it. */
  routes: Map<string, Route | undefined>;
  requests: number;
  rateLimited: number;
  candles: number;
  /** The pair the fiat is valued by (USDTGBP, or USDTEUR through the euro); undefined when none was read. */
  fiatPair?: string;
  /** How the fiat was valued, and the ECB's rates read for it (src/pipeline/prices-stage.ts). */
  fiat?: FiatValued;
}

/** How a run's fiat was valued (docs/values.md, "A fiat"): what the summary, the manifest and the report say. */
export interface FiatValued {
  currency: string;
  source: FiatSource;
  /** The platform's pair read for it: USDT<currency>, or USDTEUR for `ecb`. */
  pair?: string;
  /** With `ecb`: the requests to the ECB and the rates they brought, or why they failed. */
  ecb?: { requests: number; rates: number; failed?: string };
}

interface Reader {
  /** Each symbol is read once per run, whichever asset asks first (BTCUSDT is the route of several). */
  reading: Map<string, Promise<boolean>>;
  /** Where each span read goes, committed with its coverage (span-writer.ts). */
  spans: SpanWriter;
  client: SignedClient;
  /** One request's candles, paced, retried and checked by the extractors' own fetcher. */
  fetch: (params: Readonly<Record<string, string>>) => Promise<unknown>;
  stats: StreamStats;
  candles: number;
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The spans of `symbol` already read. */
async function coveredSpans(c: DuckDBConnection, symbol: string): Promise<Window[]> {
  // A span with hours missing is asked again by the next run: the platform may have published them since.
  const reader = await c.runAndReadAll(
    'SELECT epoch_ms(window_start), epoch_ms(window_end) FROM price_coverage WHERE symbol = $symbol AND granularity = $g AND missing_hours IS NULL',
    { symbol, g: GRANULARITY },
  );
  return reader.getRows().map((r) => ({ start: Number(r[0]), end: Number(r[1]) }));
}

async function recordPair(warehouse: Warehouse, symbol: string, listed: boolean, now: number): Promise<void> {
  await warehouse.exclusive((c) =>
    c.run('INSERT OR REPLACE INTO price_pairs VALUES ($symbol, $listed, $now)', {
      symbol,
      listed,
      now: timestampTz(now),
    }),
  );
}

/**
 * The candles of `span` (at most 200 hours), whichever way the platform reads `endTime` (docs/platform.md,
 * "Prices"): asked with endTime at the span's end, which gives the whole span both when endTime means "candles
 * that open before it" and when it means "candles complete by it". The hours of the symbol's trading life the
 * answer lacks are asked once more, ending after the last of them; what is still missing is returned as
 * missing, never filled in.
 */
async function readSpan(reader: Reader, symbol: string, span: Window, now: number): Promise<SpanRead> {
  const byTime = new Map<number, Candle>();
  const ask = async (end: number): Promise<unknown[][]> => {
    const data = await reader.fetch({
      symbol,
      granularity: GRANULARITY,
      endTime: String(end),
      limit: String(CANDLES_PER_PAGE),
    });
    for (const k of readCandles(data, span)) byTime.set(k.ts, k);
    return candlesSchema.parse(data) ?? [];
  };
  const rows = await ask(span.end);
  // Fewer candles than asked for: the platform has none older, so the symbol began trading with the oldest it
  // gave (none at all: it had not begun by the span's end). Only the first answer says so.
  const firstTraded =
    rows.length >= CANDLES_PER_PAGE
      ? Number.NEGATIVE_INFINITY
      : rows.length === 0
        ? Number.POSITIVE_INFINITY
        : Math.min(...rows.map((r) => Number(r[0])));
  const lacking = () => expectedHours(span, now, firstTraded).filter((h) => !byTime.has(h));
  const first = lacking();
  if (first.length > 0) await ask((first.at(-1) as number) + HOUR_MS);
  return { window: span, candles: [...byTime.values()].sort((a, b) => a.ts - b.ts), missing: lacking() };
}

/** The hours `span` should hold a candle for: those complete by `now`, from the symbol's first trading hour on. */
function expectedHours(span: Window, now: number, firstTraded: number): number[] {
  const hours: number[] = [];
  for (let h = Math.ceil(span.start / HOUR_MS) * HOUR_MS; h < span.end && h + HOUR_MS <= now; h += HOUR_MS)
    if (h >= firstTraded) hours.push(h);
  return hours;
}

/**
 * Reads every span of `symbol`'s hourly candles in `range` not read before, newest first, and says whether the
 * platform lists the symbol at all: the first request of an unknown symbol answers 40034, recorded in
 * price_pairs, and nothing more is asked. A symbol known to be unlisted is not asked again.
 */
function readSymbol(
  warehouse: Warehouse,
  reader: Reader,
  symbol: string,
  range: Window,
  now: number,
): Promise<boolean> {
  let reading = reader.reading.get(symbol);
  if (reading === undefined) {
    reading = readSymbolOnce(warehouse, reader, symbol, range, now);
    reader.reading.set(symbol, reading);
  }
  return reading;
}

async function readSymbolOnce(
  warehouse: Warehouse,
  reader: Reader,
  symbol: string,
  range: Window,
  now: number,
): Promise<boolean> {
  const known = await warehouse.exclusive((c) =>
    c.runAndReadAll('SELECT listed FROM price_pairs WHERE symbol = $symbol', { symbol }),
  );
  if (known.getRows()[0]?.[0] === false) return false;
  const covered = await warehouse.exclusive((c) => coveredSpans(c, symbol));
  const spans = notCovered(chunksOf(range), covered);
  if (spans.length === 0) return true;
  const [first, ...rest] = spans as [Window, ...Window[]];
  try {
    const read = await readSpan(reader, symbol, first, now);
    reader.candles += read.candles.length;
    await reader.spans.write(symbol, read);
  } catch (error) {
    if (error instanceof PlatformError && error.platformCode === NO_SUCH_SYMBOL) {
      await recordPair(warehouse, symbol, false, now);
      return false;
    }
    throw error;
  }
  await recordPair(warehouse, symbol, true, now);
  await runPool(rest, { concurrency: 4 }, async (span) => {
    const read = await readSpan(reader, symbol, span, now);
    reader.candles += read.candles.length;
    await reader.spans.write(symbol, read);
  });
  return true;
}

/** The spans of `chunks` not read yet, newest first. */
function notCovered(chunks: readonly Window[], covered: readonly Window[]): Window[] {
  return chunks.filter((chunk) => uncovered(chunk.start, chunk.end, covered).length > 0).reverse();
}

/**
 * The history's spans (PriceOptions.history) of the symbols that price each asset, and of the fiat pair (every
 * asset's spans): read after the range's, once each, the symbols' listing known by then.
 */
async function readHistorySpans(
  options: PriceOptions,
  reader: Reader,
  routes: ReadonlyMap<string, Route | undefined>,
  fiatPair: string | undefined,
  now: number,
): Promise<void> {
  const bySymbol = new Map<string, Map<number, Window>>();
  const add = (symbol: string, spans: readonly Window[]) => {
    const chunks = bySymbol.get(symbol) ?? new Map<number, Window>();
    for (const span of spans) chunks.set(span.start, span);
    bySymbol.set(symbol, chunks);
  };
  for (const [asset, spans] of options.history ?? []) {
    const route = routes.get(asset);
    if (route !== undefined)
      for (const symbol of [route.symbol, ...(route.via === undefined ? [] : [route.via])]) add(symbol, spans);
    if (fiatPair !== undefined) add(fiatPair, spans);
  }
  const work: { symbol: string; span: Window }[] = [];
  for (const [symbol, chunks] of bySymbol) {
    const covered = await options.warehouse.exclusive((c) => coveredSpans(c, symbol));
    for (const span of notCovered(
      [...chunks.values()].sort((a, b) => a.start - b.start),
      covered,
    ))
      work.push({ symbol, span });
  }
  await runPool(work, { concurrency: 4 }, async ({ symbol, span }) => {
    const read = await readSpan(reader, symbol, span, now);
    reader.candles += read.candles.length;
    await reader.spans.write(symbol, read);
  });
}

/**
 * The pair that values the fiat: USDT<currency> when the platform lists it, else USDTEUR when the fiat goes through
 * the euro and the ECB's rates (docs/values.md, "A fiat"). Neither: a usage error that names the rates file.
 */
async function fiatPairOf(
  warehouse: Warehouse,
  reader: Reader,
  fiat: NonNullable<PriceOptions['fiat']>,
  range: Window,
  now: number,
): Promise<string> {
  const own = `USDT${fiat.currency}`;
  if (await readSymbol(warehouse, reader, own, range, now)) return own;
  if (fiat.throughEur && (await readSymbol(warehouse, reader, 'USDTEUR', range, now))) return 'USDTEUR';
  const eur = fiat.throughEur ? ", nor USDTEUR to go through the euro with the ECB's rates," : '';
  throw new UsageError(
    `the platform has no ${own} pair${eur} to value ${fiat.currency} with; give a rates file with --fiat-rates FILE (docs/values.md)`,
  );
}

/** The route of one asset: the first of its candidates whose pairs the platform lists, each read as it is tried. */
async function routeAsset(
  warehouse: Warehouse,
  reader: Reader,
  asset: string,
  range: Window,
  now: number,
): Promise<Route | undefined> {
  for (const route of routeCandidates(asset)) {
    if (!(await readSymbol(warehouse, reader, route.symbol, range, now))) continue;
    if (route.via !== undefined && !(await readSymbol(warehouse, reader, route.via, range, now))) continue;
    return route;
  }
  return undefined;
}

/** What reads the candles: the platform's public client, paced by the candles' limiter (and the IP budget). */
function candleReader(options: PriceOptions, clock: () => number, now: number): Reader {
  const sleep = options.sleep ?? sleeper;
  const client = createSignedClient({
    baseUrl: options.baseUrl,
    credentials: { apiKey: '', secretKey: '', passphrase: '' },
    clock,
  });
  const stats = emptyStreamStats();
  const candles =
    options.candleLimiter ??
    createRateLimiter({ perSecond: CANDLE_RATE_PER_SECOND * (options.rateScale ?? 1), clock, sleep });
  const limiter = options.ipLimiter === undefined ? candles : underBudget(candles, options.ipLimiter);
  const fetch = createFetcher(
    HISTORY_CANDLES,
    (data) => candlesSchema.parse(data),
    {
      client,
      limiter,
      policy: DEFAULT_RETRY,
      // Public candles are not signed: there is no clock to re-sync.
      retryDeps: { sleep, random: Math.random, syncTime: async () => undefined },
      stats,
    },
    { signed: false },
  );
  return {
    reading: new Map(),
    spans: createSpanWriter(options.warehouse, now),
    client,
    fetch,
    stats,
    candles: 0,
  };
}

/** Replaces each asset's row of price_routes: its route, or none for an asset left unpriced. */
async function storeRoutes(warehouse: Warehouse, routes: ReadonlyMap<string, Route | undefined>): Promise<void> {
  await warehouse.transaction(async (c) => {
    for (const [asset, route] of routes) {
      await c.run('DELETE FROM price_routes WHERE asset = $asset', { asset });
      if (route !== undefined)
        await c.run('INSERT INTO price_routes VALUES ($asset, $symbol, $via)', {
          asset,
          symbol: route.symbol,
          via: route.via ?? null,
        });
    }
  });
}

/** Warns of the assets with no price on the platform, then of each symbol's hours of the range with no candle. */
async function warnUnpriced(
  options: PriceOptions,
  routes: ReadonlyMap<string, Route | undefined>,
  range: Window,
): Promise<void> {
  const unpriced = [...routes].filter(([, r]) => r === undefined).map(([a]) => a);
  if (unpriced.length > 0)
    options.log.warn(`no price on the platform for ${unpriced.join(', ')}: their rows have no value (docs/values.md)`);
  for (const gap of await missingHours(options.warehouse, range)) {
    options.log.warn(
      `${gap.symbol}: ${gap.hours.length} hour${gap.hours.length === 1 ? '' : 's'} without a candle (${gap.hours
        .slice(0, 3)
        .map((h) => new Date(h).toISOString())
        .join(
          ', ',
        )}${gap.hours.length > 3 ? ', ...' : ''}): ${MISSING_REASON}; movements in them have no value (price_coverage.missing_hours)`,
    );
  }
}

/**
 * The prices stage (docs/values.md): for every asset, the hourly candles of the range along the first route
 * the platform lists (routes.ts), stored with the spans read, so a second run asks only for what is new; the
 * route of each asset in price_routes (none: unpriced, listed, never guessed). With `fiat`, the candles of
 * USDT<fiat>, else of USDTEUR when the fiat goes through the euro (fiatPair in the result); a platform with neither is
 * a usage error that names the rates file.
 *
 * @example
 * await extractPrices({ warehouse, baseUrl, assets: ['BTC', 'ETH'], range, log });
 */
export async function extractPrices(options: PriceOptions): Promise<PriceResult> {
  const clock = options.clock ?? Date.now;
  const now = clock();
  // The candle of the present hour is not final: only hours already past are read, on the platform's clock too.
  const present = Math.min(now, options.present ?? now);
  const range = {
    start: options.range.start,
    end: Math.min(options.range.end, Math.floor(present / HOUR_MS) * HOUR_MS),
  };
  await options.warehouse.exclusive((c) => runModel(c, 'load/price_staging.sql'));
  const reader = candleReader(options, clock, now);
  const routes = new Map<string, Route | undefined>();
  let fiatPair: string | undefined;
  try {
    if (range.start < range.end) {
      const assets = [...new Set(options.assets)].filter((a) => a !== 'USDT').sort();
      await runPool(assets, { concurrency: 4 }, async (asset) => {
        routes.set(asset, await routeAsset(options.warehouse, reader, asset, range, now));
      });
      if (options.fiat !== undefined) fiatPair = await fiatPairOf(options.warehouse, reader, options.fiat, range, now);
    }
    // The history's assets that the range does not move are routed too, on their history's first span.
    for (const asset of [...(options.history?.keys() ?? [])].filter((a) => a !== 'USDT' && !routes.has(a)).sort()) {
      const first = options.history?.get(asset)?.[0];
      if (first !== undefined) routes.set(asset, await routeAsset(options.warehouse, reader, asset, first, now));
    }
    if (options.history !== undefined) await readHistorySpans(options, reader, routes, fiatPair, now);
  } finally {
    await reader.client.close();
  }
  await storeRoutes(options.warehouse, routes);
  await warnUnpriced(options, routes, range);
  return {
    routes,
    requests: reader.stats.requests,
    rateLimited: reader.stats.rateLimited,
    candles: reader.candles,
    ...(fiatPair === undefined ? {} : { fiatPair }),
  };
}

/** Per symbol, the hours of `range` with no candle after two asks (price_coverage.missing_hours), oldest first. */
export async function missingHours(
  warehouse: Warehouse,
  range: Window,
): Promise<{ symbol: string; hours: number[] }[]> {
  const found = await warehouse.exclusive(async (c) => {
    // A warehouse opened read-only before its migration to this release has no such column: nothing is known missing.
    const column = await c.runAndReadAll(
      "SELECT 1 FROM duckdb_columns() WHERE table_name = 'price_coverage' AND column_name = 'missing_hours' AND database_name = current_database()",
    );
    if (column.getRows().length === 0) return [];
    return (
      await c.runAndReadAll(
        // Each hour once (spans read under another time zone overlap), and not once its candle has come.
        `SELECT symbol, list(DISTINCT epoch_ms(h) ORDER BY epoch_ms(h)) AS hours FROM (SELECT symbol, granularity, unnest(missing_hours) AS h FROM price_coverage WHERE missing_hours IS NOT NULL) AS p
         WHERE h >= $from AND h < $to AND NOT EXISTS (SELECT 1 FROM price_candles AS c WHERE c.symbol = p.symbol AND c.granularity = p.granularity AND c.ts = p.h)
         GROUP BY symbol ORDER BY symbol`,
        { from: timestampTz(range.start), to: timestampTz(range.end) },
      )
    ).getRowObjectsJS();
  });
  return found.map((r) => ({ symbol: String(r['symbol']), hours: (r['hours'] as unknown[]).map(Number) }));
}
