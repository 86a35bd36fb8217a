import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import type { RateLimiter } from '../extract/rate-limiter.js';
import { extractPrices, type PriceResult } from '../prices/extract-prices.js';
import { loadRates } from '../prices/rates-file.js';
import { applyValuation, type Valuation } from '../warehouse/values.js';
import type { Window } from '../time/window.js';
import type { Logger } from '../util/logger.js';
import { ident, literal } from '../warehouse/quote.js';
import { timestampTz } from '../warehouse/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** An asset of the range with movements that have no value: no price for their hour, or no fiat rate. */
export interface Unpriced {
  asset: string;
  /** `usdt`: no USDT price; else the fiat with no rate. */
  missing: string;
  entries: number;
}

export interface ValuationOptions {
  fiat: string | null;
  /** The user's rates file for the fiat; without it, the platform's USDT<fiat> pair. */
  fiatRates?: string;
  timeZone: string;
}

/** The assets the ledger moves in `range`: what the prices stage prices. */
export async function assetsOfRange(warehouse: Warehouse, range: Window): Promise<string[]> {
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll('SELECT DISTINCT asset FROM ledger WHERE ts >= $from AND ts < $to ORDER BY asset', { from: timestampTz(range.start), to: timestampTz(range.end) }),
  );
  return reader.getRows().map((r) => String(r[0]));
}

/**
 * Makes the views of values for this command's fiat and time zone (README, "Values"), loading the rates file
 * first when one is given: the views and the rates change together, in one transaction.
 */
export async function prepareValuation(warehouse: Warehouse, options: ValuationOptions): Promise<Valuation> {
  const valuation: Valuation = {
    fiat: options.fiat,
    fiatSource: options.fiat === null ? null : options.fiatRates === undefined ? 'pair' : 'file',
    timeZone: options.timeZone,
  };
  await warehouse.transaction(async (c) => {
    if (options.fiat !== null && options.fiatRates !== undefined) await loadRates(c, options.fiatRates, options.fiat);
    await applyValuation(c, valuation);
  });
  return valuation;
}

/** The prices stage: the candles of every asset the range moves (and of USDT<fiat>), then the views of values. */
export async function pricesStage(
  warehouse: Warehouse,
  options: ValuationOptions & { baseUrl: string; range: Window; clock?: () => number; rateScale?: number; ipLimiter?: RateLimiter; log: Logger },
): Promise<PriceResult> {
  const assets = await assetsOfRange(warehouse, options.range);
  const fiatPair = options.fiat !== null && options.fiatRates === undefined ? { fiatPair: options.fiat } : {};
  let result: PriceResult;
  try {
    result = await extractPrices({
      warehouse,
      baseUrl: options.baseUrl,
      assets: assets.filter((a) => a !== options.fiat),
      range: options.range,
      ...fiatPair,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      rateScale: options.rateScale ?? 1,
      ...(options.ipLimiter === undefined ? {} : { ipLimiter: options.ipLimiter }),
      log: options.log,
    });
  } catch (error) {
    // Prices are a warning, never a gap (README, "Values"): the values stay empty where no candle was read.
    if (!(error instanceof LedgerpipeError) || error.exit === 'usage') throw error;
    options.log.warn(`prices could not be read (${error.message}); movements without a candle have no value; run ledgerpipe prices again later`);
    result = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  }
  await prepareValuation(warehouse, options);
  return result;
}

/**
 * Per asset, the movements of `range` (of one account, or all) without a value in USDT, or in the fiat (README,
 * "Values"). `source`: the valued ledger rows to read, lp_ledger_valued (value_fiat is the fiat's value) or a
 * table made of them (the report's).
 */
export async function readUnpriced(warehouse: Warehouse, range: Window, valuation: Valuation, account?: string, source = 'lp_ledger_valued'): Promise<Unpriced[]> {
  const rows = `ts >= $from AND ts < $to${account === undefined ? '' : ` AND account = ${literal(account)}`}`;
  // One pass over the rows, both counts side by side, then one row per count: each read of the valued ledger
  // computes every row's value (docs/performance.md, "Prices").
  const counts = ['usdt', ...(valuation.fiat === null ? [] : [valuation.fiat])];
  const columns = counts.map((name) => `count(*) FILTER (WHERE ${name === 'usdt' ? 'value_usdt' : 'value_fiat'} IS NULL) AS ${ident(name)}`);
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll(
      `SELECT asset, missing, n FROM (UNPIVOT (SELECT asset, ${columns.join(', ')} FROM ${source} WHERE ${rows} GROUP BY asset)
       ON ${counts.map((name) => ident(name)).join(', ')} INTO NAME missing VALUE n) WHERE n > 0 ORDER BY asset, missing`,
      { from: timestampTz(range.start), to: timestampTz(range.end) },
    ),
  );
  return reader.getRows().map((r) => ({ asset: String(r[0]), missing: String(r[1]), entries: Number(r[2]) }));
}
