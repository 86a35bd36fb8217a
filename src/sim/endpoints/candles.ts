import { badParam, SimApiError } from '../api-error.js';
import { simClose, type SimMarket } from '../data/markets.js';
import type { Endpoint } from './endpoint.js';

export { DEFAULT_MARKETS, simClose, type SimMarket } from '../data/markets.js';

const HOUR_MS = 3_600_000;

/** How history-candles reads `endTime` (SimulatorOptions.candleEndTime). */
export type CandleEndTime = 'open-before' | 'closed-before';
const GRANULARITIES: Record<string, number> = {
  '1min': 60_000,
  '5min': 300_000,
  '15min': 900_000,
  '30min': 1_800_000,
  '1h': HOUR_MS,
  '4h': 4 * HOUR_MS,
  '1day': 24 * HOUR_MS,
};

/**
 * GET /api/v2/spot/market/history-candles (docs/platform.md, "Prices"): public, 20 requests a second per IP,
 * `symbol`, `granularity` and `endTime` required, `limit` 100 by default and at most 200; the `limit` candles
 * that open before `endTime`, oldest first, each `[ts, open, high, low, close, baseVolume, usdtVolume,
 * quoteVolume]`. A symbol not listed answers 40034, as the live service does; no candle opens after `now`.
 */
export function historyCandlesEndpoint(
  seed: string,
  markets: readonly SimMarket[],
  candles: { endTime: CandleEndTime; missing: Readonly<Record<string, readonly number[]>> } = {
    endTime: 'open-before',
    missing: {},
  },
): Endpoint {
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
      // Candles that open before endTime (or, read the other way, close by it) and whose hour has begun; the
      // platform's gaps are not served, and the `limit` newest of the rest are.
      const before = candles.endTime === 'open-before' ? endTime - 1 : endTime - step;
      const last = Math.floor(Math.min(before, now) / step) * step;
      const gaps = new Set(candles.missing[symbol] ?? []);
      const served: number[] = [];
      for (let ts = last; ts >= 0 && served.length < limit && ts > last - (limit + gaps.size) * step; ts -= step)
        if (!gaps.has(ts)) served.unshift(ts);
      const rows: string[] = [];
      for (const ts of served) {
        const close = simClose(seed, market, Math.floor(ts / HOUR_MS) * HOUR_MS);
        const open = simClose(seed, market, Math.floor(ts / HOUR_MS) * HOUR_MS - HOUR_MS);
        const [high, low] = Number(open) > Number(close) ? [open, close] : [close, open];
        rows.push(`["${ts}","${open}","${high}","${low}","${close}","0","0","0"]`);
      }
      return `[${rows.join(',')}]`;
    },
  };
}
