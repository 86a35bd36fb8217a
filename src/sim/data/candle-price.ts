import type { PriceUnits } from './markets.js';

const HOUR_MS = 3_600_000;

/**
 * A price inside the candle of the hour holding `ts`, as history-candles serves it (endpoints/candles.ts): its open is
 * the close of the hour before, its close the hour's own, its high and low the larger and smaller of the two. The
 * price is `share` (0 to 1) of the way from the low to the high, rounded down, so never outside them: what a trade
 * of that hour could have been filled at.
 *
 * @example
 * const p = priceInCandle(priceAt, 'BTCUSDT', ts, 0.5); // halfway between that hour's low and high
 */
export function priceInCandle(
  priceAt: (symbol: string, ts: number) => PriceUnits,
  symbol: string,
  ts: number,
  share: number,
): PriceUnits {
  const close = priceAt(symbol, ts);
  const open = priceAt(symbol, ts - HOUR_MS);
  const [low, high] = open.units < close.units ? [open.units, close.units] : [close.units, open.units];
  const thousandths = BigInt(Math.min(1000, Math.max(0, Math.floor(share * 1000))));
  return { units: low + ((high - low) * thousandths) / 1000n, places: close.places };
}
