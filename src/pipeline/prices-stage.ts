import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import type { RateLimiter } from '../extract/rate-limiter.js';
import { extractPrices, type PriceResult } from '../prices/extract-prices.js';
import { loadRates } from '../prices/rates-file.js';
import { applyValuation, type Valuation } from '../warehouse/values.js';
import type { Window } from '../time/window.js';
import type { Logger } from '../util/logger.js';
import { timestampTz } from '../warehouse/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';

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
 * Makes the views of values for this command's fiat and time zone (docs/values.md), loading the rates file
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
    // Prices are a warning, never a gap (docs/values.md): the values stay empty where no candle was read.
    if (!(error instanceof LedgerpipeError) || error.exit === 'usage') throw error;
    options.log.warn(`prices could not be read (${error.message}); movements without a candle have no value; run ledgerpipe prices again later`);
    result = { routes: new Map(), requests: 0, rateLimited: 0, candles: 0 };
  }
  await prepareValuation(warehouse, options);
  return result;
}
