import { formatUnits, randomUnits } from './decimal.js';
import { FILL_PRODUCT_TYPES } from './fills.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './model.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/** futureTaxType values the simulator writes: funding fees, closes, liquidations, delivery settlement. */
export const FUTURE_TAX_TYPES = ['funding_fee', 'close_long', 'close_short', 'burst_long_loss', 'burst_short_loss', 'delivery_settle'] as const;
export const SPOT_TAX_TYPES = ['Interest', 'Airdrop', 'Rebate', 'Commission', 'Transfer in', 'Transfer out'] as const;
export const P2P_TAX_TYPES = ['transfer-in', 'transfer-out', 'buy', 'sell'] as const;

const MARGIN_COINS: Record<(typeof FILL_PRODUCT_TYPES)[number], readonly string[]> = {
  'USDT-FUTURES': ['USDT'],
  'COIN-FUTURES': ['BTC', 'ETH'],
  'USDC-FUTURES': ['USDC'],
};

/** The 30-day seams (the live tax-record window), the range ends, and a run longer than a page (500). */
function times(options: GenerateOptions, rng: Rng, count: number, withRun: boolean): number[] {
  const { from, to } = options;
  return [
    ...edgeTimes(from, to, [30 * DAY_MS], []),
    ...randomTimes(rng, count, from - MARGIN_BEYOND_MS, to + MARGIN_BEYOND_MS, []),
    ...(withRun ? run(anchor(from, to, 0.58), 503) : []),
  ];
}

/** Every type once inside the range, then by weight. */
function typeChooser<T extends string>(options: GenerateOptions, rng: Rng, types: readonly T[]): (ts: number) => T {
  const forced = [...types];
  return (ts) => (ts >= options.from && ts < options.to && forced.length > 0 ? (forced.shift() as T) : rng.pick(types));
}

/** Futures tax records (GET /api/v2/tax/future-record), per product type: funding fees, closes, liquidations. */
export function generateFutureTaxRecords(options: GenerateOptions, rng: Rng): Partition[] {
  return FILL_PRODUCT_TYPES.map((name, index) => {
    const prng = rng.fork(name);
    const typeAt = typeChooser(options, prng, FUTURE_TAX_TYPES);
    const stable = name !== 'COIN-FUTURES';
    const records = buildRecords(times(options, prng, Math.round(options.records / (index === 0 ? 6 : 15)), index === 0), index, prng, (ts, id) => {
      const type = typeAt(ts);
      const marginCoin = prng.pick(MARGIN_COINS[name]);
      const size = stable ? randomUnits(prng, 0.01, type === 'funding_fee' ? 30 : 2_000, 8) : randomUnits(prng, 0.00000001, type === 'funding_fee' ? 0.002 : 0.05, 8);
      const sign = type.startsWith('burst') ? -1n : type === 'funding_fee' || type.startsWith('close') ? (prng.chance(0.5) ? 1n : -1n) : 1n;
      const record: Payload = {
        id,
        symbol: name === 'USDT-FUTURES' ? 'BTCUSDT' : name === 'USDC-FUTURES' ? 'BTCPERP' : `${marginCoin}USD`,
        marginCoin,
        futureTaxType: type,
        amount: formatUnits(sign * size, 8),
        fee: type === 'funding_fee' ? '0' : formatUnits(-randomUnits(prng, 0.00000001, stable ? 2 : 0.0005, 8), 8),
        ts: String(ts),
      };
      return { record };
    });
    return { name, records };
  });
}

/** Spot tax records (GET /api/v2/tax/spot-record): interest, airdrops, rebates, transfers. */
export function generateSpotTaxRecords(options: GenerateOptions, rng: Rng): Partition[] {
  const prng = rng.fork('spot');
  const typeAt = typeChooser(options, prng, SPOT_TAX_TYPES);
  let balance = 50_000_000_000n;
  const records = buildRecords(times(options, prng, Math.max(30, Math.round(options.records / 20)), false), 0, prng, (ts, id) => {
    const type = typeAt(ts);
    const amount = randomUnits(prng, 0.00000001, 500, 8);
    balance += type === 'Transfer out' ? -amount : amount;
    const record: Payload = {
      id,
      coin: prng.pick(['USDT', 'BTC', 'ETH', 'BGB']),
      spotTaxType: type,
      amount: formatUnits(type === 'Transfer out' ? -amount : amount, 8),
      fee: type === 'Commission' ? formatUnits(-randomUnits(prng, 0.00000001, 0.5, 8), 8) : '0',
      balance: formatUnits(balance < 0n ? -balance : balance, 8),
      bizOrderId: String(BigInt(id) + 11n),
      ts: String(ts),
    };
    return { record };
  });
  return [{ name: '', records }];
}

/** P2P tax records (GET /api/v2/tax/p2p-record): the moved amount is in `balance` (live-notes.md example). */
export function generateP2pTaxRecords(options: GenerateOptions, rng: Rng): Partition[] {
  const prng = rng.fork('p2p');
  const typeAt = typeChooser(options, prng, P2P_TAX_TYPES);
  const records = buildRecords(times(options, prng, Math.max(20, Math.round(options.records / 40)), false), 0, prng, (ts, id) => {
    const type = typeAt(ts);
    const amount = randomUnits(prng, 1, 5_000, 2);
    const out = type === 'transfer-out' || type === 'sell';
    const record: Payload = { id, coin: 'USDT', p2pTaxType: type, balance: formatUnits(out ? -amount : amount, 2), ts: String(ts) };
    return { record };
  });
  return [{ name: '', records }];
}
