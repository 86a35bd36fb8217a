import { badParam, SimApiError } from '../api-error.js';
import { hashUnit } from '../data/rng.js';
import type { Endpoint } from './endpoint.js';

const HOUR_MS = 3_600_000;
const GRANULARITIES: Record<string, number> = { '1min': 60_000, '5min': 300_000, '15min': 900_000, '30min': 1_800_000, '1h': HOUR_MS, '4h': 4 * HOUR_MS, '1day': 24 * HOUR_MS };

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

/**
 * GET /api/v2/spot/market/history-candles (docs/platform.md, "Prices"): public, 20 requests a second per IP,
 * `symbol`, `granularity` and `endTime` required, `limit` 100 by default and at most 200; the `limit` candles
 * that open before `endTime`, oldest first, each `[ts, open, high, low, close, baseVolume, usdtVolume,
 * quoteVolume]`. A symbol not listed answers 40034, as the live service does; no candle opens after `now`.
 */
export function historyCandlesEndpoint(seed: string, markets: readonly SimMarket[]): Endpoint {
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  return {
    path: '/api/v2/spot/market/history-candles',
    signed: false,
    rate: 20,
    perIp: true,
    handle: ({ params, now }) => {
      const symbol = params.required('symbol');
      const step = GRANULARITIES[params.required('granularity')];
      if (step === undefined) throw badParam('granularity');
      const endTime = params.time('endTime', true);
      const limit = params.limit(100, 200);
      const market = bySymbol.get(symbol);
      if (market === undefined) throw new SimApiError(400, '40034', `Parameter ${symbol} does not exist`);
      // Candles that open before endTime and whose hour has begun.
      const last = Math.floor(Math.min(endTime - 1, now) / step) * step;
      const rows: string[] = [];
      for (let ts = Math.max(0, last - (limit - 1) * step); ts <= last; ts += step) {
        const close = simClose(seed, market, Math.floor(ts / HOUR_MS) * HOUR_MS);
        const open = simClose(seed, market, Math.floor(ts / HOUR_MS) * HOUR_MS - HOUR_MS);
        const [high, low] = Number(open) > Number(close) ? [open, close] : [close, open];
        rows.push(`["${ts}","${open}","${high}","${low}","${close}","0","0","0"]`);
      }
      return `[${rows.join(',')}]`;
    },
  };
}
