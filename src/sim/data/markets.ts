import { hashUnit } from './rng.js';

const HOUR_MS = 3_600_000;

/** A pair the simulator quotes: its price's middle, how far it swings, and its decimals. */
export interface SimMarket {
  symbol: string;
  mid: number;
  swing: number;
  decimals: number;
}

/**
 * The pairs the simulator serves candles for by default: the USDT pairs of the assets its records move (EUR,
 * of the fiat deposits, has none), USDCUSDT, BTC-quoted BGB, and USDTEUR for fiat values.
 */
export const DEFAULT_MARKETS: readonly SimMarket[] = [
  { symbol: 'BTCUSDT', mid: 80_000, swing: 0.25, decimals: 2 },
  { symbol: 'ETHUSDT', mid: 2_800, swing: 0.3, decimals: 2 },
  { symbol: 'SOLUSDT', mid: 160, swing: 0.35, decimals: 3 },
  { symbol: 'BGBUSDT', mid: 4.5, swing: 0.3, decimals: 4 },
  { symbol: 'XRPUSDT', mid: 2.2, swing: 0.35, decimals: 4 },
  { symbol: 'BGBBTC', mid: 0.0000562, swing: 0.3, decimals: 10 },
  { symbol: 'USDCUSDT', mid: 1, swing: 0.0008, decimals: 4 },
  { symbol: 'USDTEUR', mid: 0.9, swing: 0.04, decimals: 4 },
];

/**
 * The close of `market` for the hour that opens at `hour`: a slow wave plus hourly noise, both drawn from the
 * seed, so every run and every request sees the same price for the same hour.
 */
export function simClose(seed: string, market: SimMarket, hour: number): string {
  const h = hour / HOUR_MS;
  const wave = Math.sin(h / 700 + hashUnit(`${seed}:${market.symbol}:phase`) * 6.283);
  const noise = hashUnit(`${seed}:${market.symbol}:${h}`) - 0.5;
  return (market.mid * (1 + market.swing * (0.8 * wave + 0.2 * noise))).toFixed(market.decimals);
}

/** A price as units (the value times 10^places), ready for exact arithmetic (decimal.ts). */
export interface PriceUnits {
  units: bigint;
  places: number;
}

/**
 * The close of `symbol` for the hour holding `ts`, as the simulator's candles serve it: what its trades are
 * priced at, so that values computed from the candles mean something.
 */
export function pricer(
  seed: string,
  markets: readonly SimMarket[] = DEFAULT_MARKETS,
): (symbol: string, ts: number) => PriceUnits {
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  const hour = (ts: number) => Math.floor(ts / HOUR_MS) * HOUR_MS;
  const quote = (market: SimMarket, ts: number): PriceUnits => ({
    units: BigInt(simClose(seed, market, hour(ts)).replace('.', '')),
    places: market.decimals,
  });
  return (symbol, ts) => {
    const market = bySymbol.get(symbol);
    if (market !== undefined) return quote(market, ts);
    // A coin with no USDT pair served (a test's markets) is priced through its BTC pair, as ledgerpipe routes it.
    const viaBtc = bySymbol.get(symbol.replace(/USDT$/, 'BTC'));
    const btc = bySymbol.get('BTCUSDT');
    if (!symbol.endsWith('USDT') || viaBtc === undefined || btc === undefined)
      throw new Error(`the simulator quotes no ${symbol}`);
    const [a, b] = [quote(viaBtc, ts), quote(btc, ts)];
    return { units: a.units * b.units, places: a.places + b.places };
  };
}
