import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANDLE_RATE_PER_SECOND, CANDLES_PER_PAGE, HOUR_MS } from '../src/prices/candles.js';
import { extractPrices } from '../src/prices/extract-prices.js';
import { DEFAULT_MARKETS, type SimMarket } from '../src/sim/endpoints/candles.js';
import { startSimulator } from '../src/sim/server.js';
import { silentLogger } from '../src/util/logger.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';

/**
 * The assets of the benchmark: 26 with a USDT pair (BTC among them), 2 with only a USDC pair (priced through
 * USDCUSDT) and 2 with only a BTC pair (through BTCUSDT), so every route and its probes are measured.
 */
function benchMarkets(): { assets: string[]; markets: SimMarket[]; probes: number; symbols: number } {
  const market = (symbol: string, mid: number): SimMarket => ({ symbol, mid, swing: 0.3, decimals: 6 });
  const usdt = ['BTC', ...Array.from({ length: 25 }, (_, i) => `TOK${String(i).padStart(2, '0')}`)];
  const viaUsdc = ['UCA', 'UCB'];
  const viaBtc = ['BCA', 'BCB'];
  const markets = [
    ...usdt.map((a) => (a === 'BTC' ? DEFAULT_MARKETS[0]! : market(`${a}USDT`, 3))),
    ...viaUsdc.map((a) => market(`${a}USDC`, 0.5)),
    ...viaBtc.map((a) => market(`${a}BTC`, 0.00002)),
    DEFAULT_MARKETS.find((m) => m.symbol === 'USDCUSDT')!,
  ];
  // Unlisted pairs asked once each (40034): <A>USDT for the USDC ones; <A>USDT and <A>USDC for the BTC ones.
  const probes = viaUsdc.length + 2 * viaBtc.length;
  // The simulator prices its own generated trades (ETH, SOL, XRP, ...) by its markets: it quotes those too. The
  // bench asks none of them, so they are not among the symbols the bound counts.
  const held = new Set(markets.map((m) => m.symbol));
  const served = [...markets, ...DEFAULT_MARKETS.filter((m) => !held.has(m.symbol))];
  return { assets: [...usdt, ...viaUsdc, ...viaBtc], markets: served, probes, symbols: markets.length };
}

export interface PricesMeasurement {
  assets: number;
  wallSeconds: number;
  /** The fewest requests any reader needs: per listed symbol, its hours over 200, plus one per unlisted pair. */
  fewestRequests: number;
  boundSeconds: number;
  ratio: number;
  requests: number;
  rateLimited: number;
  candles: number;
}

/**
 * The prices stage over `[from, to)` for 30 assets against the simulator at the real per-IP limit (20 requests
 * a second), beside its rate-limit bound. The simulator runs in this process: at 20 requests a second it
 * costs the event loop nothing worth a process of its own.
 */
export async function measurePrices(options: { from: string; to: string }): Promise<PricesMeasurement> {
  const from = Date.parse(`${options.from}T00:00:00Z`);
  const to = Date.parse(`${options.to}T00:00:00Z`);
  const { assets, markets, probes, symbols } = benchMarkets();
  const sim = await startSimulator({ seed: 'bench-prices', from, to, records: 10, rateScale: 1, markets });
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-prices-'));
  const warehouse = await openWarehouse(join(dir, 'prices.duckdb'));
  try {
    const started = performance.now();
    const result = await extractPrices({
      warehouse,
      baseUrl: sim.baseUrl,
      assets,
      range: { start: from, end: to },
      log: silentLogger,
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const fewestRequests = symbols * Math.ceil((to - from) / HOUR_MS / CANDLES_PER_PAGE) + probes;
    const boundSeconds = fewestRequests / CANDLE_RATE_PER_SECOND;
    const unpriced = [...result.routes].filter(([, route]) => route === undefined);
    if (unpriced.length > 0) throw new Error(`bench: ${unpriced.length} assets found no route`);
    return {
      assets: assets.length,
      wallSeconds,
      fewestRequests,
      boundSeconds,
      ratio: wallSeconds / boundSeconds,
      requests: result.requests,
      rateLimited: result.rateLimited,
      candles: result.candles,
    };
  } finally {
    await warehouse.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}
