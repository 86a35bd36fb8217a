import { formatUnits, mulUnits, randomUnits } from './decimal.js';
import type { PriceUnits } from './markets.js';
import { FILL_PRODUCT_TYPES } from './fills.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { Rng } from './rng.js';
import { anchor, buildEventRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/**
 * futureTaxType values as real records carry them (lower-case codes; docs/platform.md, "Tax records"): funding
 * fees, opens and closes (which the fills carry too), a liquidation, transfers with the spot account, a bonus,
 * each with its weight. UNKNOWN_FUTURE_TAX_TYPE is one no documentation lists.
 */
export const FUTURE_TAX_TYPES: readonly (readonly [string, number])[] = [
  ['contract_main_settle_fee', 30],
  ['contract_margin_settle_fee', 2],
  ['open_long', 15],
  ['open_short', 15],
  ['close_long', 12],
  ['close_short', 12],
  ['burst_close_long', 1],
  ['trans_from_exchange', 4],
  ['trans_to_exchange', 3],
  ['bonus_issue', 1],
];
export const UNKNOWN_FUTURE_TAX_TYPE = 'contract_settle_adjust';

/**
 * spotTaxType display names of the docs' list. A spot order is two records of its type in one millisecond with
 * one bizOrderId (the coin received, positive; the coin given, negative) and a "Transaction fee deduct"; a
 * conversion is "Exchange spending" and "Exchange income". UNKNOWN_SPOT_TAX_TYPE is one no documentation lists.
 */
export const SPOT_SINGLE_TYPES: readonly (readonly [string, number])[] = [
  ['Interest', 6],
  ['Airdrop Reward-A', 1],
  ['Rebate rewards', 2],
  ['Trading fee rebate', 2],
  ['Fiat deposit', 1],
  ['Fast withdrawal fee', 1],
  ['Subscribe', 2],
  ['Redemption', 2],
];
/**
 * The spot side of what other streams move (docs/simulator.md): each successful deposit and withdrawal, and
 * each internal transfer with the margin, futures and P2P (funding) accounts, is also a spot tax record, so the
 * spot account's running balance counts it and every internal transfer has both sides.
 */
export const SPOT_MIRROR_TYPES = ['Deposit', 'Withdrawal', 'Transfer in', 'Transfer out'] as const;
export const SPOT_TAX_TYPES = [
  'Buy',
  'Sell',
  'Transaction fee deduct',
  'Exchange spending',
  'Exchange income',
  ...SPOT_SINGLE_TYPES.map(([t]) => t),
  ...SPOT_MIRROR_TYPES,
];
export const UNKNOWN_SPOT_TAX_TYPE = 'Card cashback-user in';

/** p2pTaxType values: the newest docs' example spells the transfers with a hyphen. */
export const P2P_TAX_TYPES = ['transfer-in', 'transfer-out', 'buy', 'sell'] as const;
export const UNKNOWN_P2P_TAX_TYPE = 'appeal_adjustment';

/** Outflows among the single types: written negative. */
const SPOT_OUT = new Set(['Fast withdrawal fee', 'Subscribe']);

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
  ].sort((a, b) => a - b);
}

/**
 * Every type of `types` once inside the range (in order), then by weight; now and then (`rare`) the
 * undocumented one, so the review path is exercised at every scale.
 */
function typeChooser(
  options: GenerateOptions,
  rng: Rng,
  types: readonly (readonly [string, number])[],
  unknown: string,
  rare = 0.004,
): (ts: number) => string {
  const forced = [...types.map(([t]) => t), unknown];
  return (ts) => {
    if (ts >= options.from && ts < options.to && forced.length > 0) return forced.shift() as string;
    return rng.chance(rare) ? unknown : rng.weighted(types);
  };
}

/** Futures tax records (GET /api/v2/tax/future-record), per product type. */
export function generateFutureTaxRecords(options: GenerateOptions, rng: Rng): Partition[] {
  return FILL_PRODUCT_TYPES.map((name, index) => {
    const prng = rng.fork(name);
    const typeAt = typeChooser(options, prng, FUTURE_TAX_TYPES, UNKNOWN_FUTURE_TAX_TYPE);
    const stable = name !== 'COIN-FUTURES';
    const events = times(options, prng, Math.round(options.records / (index === 0 ? 6 : 15)), index === 0).map(
      (ts) => ({ ts, legs: [typeAt(ts)] }),
    );
    const records = buildEventRecords(events, index, prng, (event, _leg, ts, id) => {
      const type = event.legs[0] as string;
      const funding = type.includes('settle');
      const marginCoin = prng.pick(MARGIN_COINS[name]);
      const size = stable
        ? randomUnits(prng, 0.01, funding ? 30 : 2_000, 8)
        : randomUnits(prng, 0.00000001, funding ? 0.002 : 0.05, 8);
      // Opens move nothing but their fee (real records: amount "0"); transfers out and liquidations are negative.
      const amount = type.startsWith('open')
        ? 0n
        : type.startsWith('burst') || type === 'trans_to_exchange'
          ? -size
          : funding || type.startsWith('close')
            ? prng.chance(0.5)
              ? size
              : -size
            : size;
      const charged = type.startsWith('open') || type.startsWith('close') || type.startsWith('burst');
      const record: Payload = {
        id,
        symbol: name === 'USDT-FUTURES' ? 'BTCUSDT' : name === 'USDC-FUTURES' ? 'BTCPERP' : `${marginCoin}USD`,
        marginCoin,
        futureTaxType: type,
        amount: formatUnits(amount, 8),
        fee: charged ? formatUnits(-randomUnits(prng, 0.00000001, stable ? 2 : 0.0005, 8), 8) : '0',
        ts: String(ts),
      };
      return { record };
    });
    return { name, records };
  });
}

/** A spot record that mirrors a record of another stream: its type, coin, signed amount and fee, at that time. */
export interface SpotMirror {
  ts: number;
  type: (typeof SPOT_MIRROR_TYPES)[number];
  coin: string;
  amount: bigint;
  fee: bigint;
}

type SpotEvent = { kind: 'buy' | 'sell' | 'convert' } | { kind: 'single'; type: string };
type SpotLeg = readonly [type: string, coin: string, amount: bigint, fee: bigint];

/** The records of one spot event: type, coin, signed amount and fee of each; trades priced at the hour's close. */
function spotLegs(rng: Rng, event: SpotEvent, price: (coin: string) => PriceUnits): SpotLeg[] {
  if (event.kind === 'single') {
    const units = randomUnits(rng, 0.00000001, 500, 8);
    return [
      [
        event.type,
        event.type === 'Fiat deposit' ? 'EUR' : rng.pick(['USDT', 'BTC', 'ETH', 'BGB']),
        SPOT_OUT.has(event.type) ? -units : units,
        0n,
      ],
    ];
  }
  const coin = rng.pick(['BTC', 'ETH', 'BGB', 'SOL']);
  const qty = randomUnits(rng, 0.001, 20, 8);
  const close = price(coin);
  const cost = mulUnits(qty, 8, close.units, close.places, 8) || 1n;
  if (event.kind === 'buy')
    return [
      ['Buy', coin, qty, 0n],
      ['Buy', 'USDT', -cost, 0n],
      ['Transaction fee deduct', coin, -(qty / 1000n || 1n), 0n],
    ];
  if (event.kind === 'sell')
    return [
      ['Sell', 'USDT', cost, 0n],
      ['Sell', coin, -qty, 0n],
      ['Transaction fee deduct', 'USDT', -(cost / 1000n || 1n), 0n],
    ];
  return [
    ['Exchange spending', 'USDT', -cost, 0n],
    ['Exchange income', coin, qty, 0n],
  ];
}

/**
 * Spot tax records (GET /api/v2/tax/spot-record): orders and conversions priced at the hour's close, every single
 * type, and the mirrors of the other streams' movements into and out of spot. `balance` is written afterwards,
 * from the whole account (accounts.ts).
 */
export function generateSpotTaxRecords(
  options: GenerateOptions,
  rng: Rng,
  priceAt: (symbol: string, ts: number) => PriceUnits,
  mirrors: readonly SpotMirror[],
): Partition[] {
  const prng = rng.fork('spot');
  const single = typeChooser(options, prng, SPOT_SINGLE_TYPES, UNKNOWN_SPOT_TAX_TYPE);
  const forced: SpotEvent[] = [{ kind: 'buy' }, { kind: 'sell' }, { kind: 'convert' }];
  const choose = (ts: number): SpotEvent => {
    if (ts >= options.from && ts < options.to && forced.length > 0) return forced.shift() as SpotEvent;
    const roll = prng.next();
    if (roll < 0.15) return { kind: 'buy' };
    if (roll < 0.3) return { kind: 'sell' };
    if (roll < 0.34) return { kind: 'convert' };
    return { kind: 'single', type: single(ts) };
  };
  const own = times(options, prng, Math.max(30, Math.round(options.records / 20)), false).map((ts) => {
    const event = choose(ts);
    return {
      ts,
      legs: spotLegs(prng, event, (coin) => priceAt(`${coin}USDT`, ts)),
      order: event.kind === 'single' ? undefined : String(ts * 10 + prng.int(0, 9)),
    };
  });
  const mirrored = mirrors.map((m) => ({
    ts: m.ts,
    legs: [[m.type, m.coin, m.amount, m.fee] as SpotLeg],
    order: undefined,
  }));
  const records = buildEventRecords([...own, ...mirrored], 0, prng, (event, leg, ts, id) => {
    const [type, coin, amount, fee] = event.legs[leg] as SpotLeg;
    const record: Payload = {
      id,
      coin,
      spotTaxType: type,
      amount: formatUnits(amount, 8),
      fee: fee === 0n ? '0' : formatUnits(fee, 8),
      balance: '',
      bizOrderId: event.order ?? String(BigInt(id) + 11n),
      ts: String(ts),
    };
    return { record };
  });
  return [{ name: '', records }];
}

/**
 * P2P tax records (GET /api/v2/tax/p2p-record). The amount moved is in `balance` (the newest docs' example) or
 * in `total` (the earlier docs and SDK types): both shapes are served.
 */
export function generateP2pTaxRecords(options: GenerateOptions, rng: Rng): Partition[] {
  const prng = rng.fork('p2p');
  const typeAt = typeChooser(
    options,
    prng,
    P2P_TAX_TYPES.map((t) => [t, 1] as const),
    UNKNOWN_P2P_TAX_TYPE,
    0.01,
  );
  const events = times(options, prng, Math.max(20, Math.round(options.records / 40)), false).map((ts) => ({
    ts,
    legs: [typeAt(ts)],
  }));
  const records = buildEventRecords(events, 0, prng, (event, _leg, ts, id) => {
    const type = event.legs[0] as string;
    const amount = randomUnits(prng, 1, 5_000, 2);
    const out = type === 'transfer-out' || type === 'sell';
    const field = prng.chance(0.5) ? 'balance' : 'total';
    const record: Payload = {
      id,
      coin: 'USDT',
      p2pTaxType: type,
      [field]: formatUnits(out ? -amount : amount, 2),
      ts: String(ts),
    };
    return { record };
  });
  return [{ name: '', records }];
}
