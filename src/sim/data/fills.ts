import { formatUnits, mulUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { PriceUnits } from './markets.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, fillGap, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

export const FILL_PRODUCT_TYPES = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export type FillProductType = (typeof FILL_PRODUCT_TYPES)[number];

interface Market {
  symbol: string;
  base: string;
  /** Price range and decimals; base volume range and decimals. */
  price: readonly [number, number, number];
  volume: readonly [number, number, number];
}

const MARKETS: Record<FillProductType, readonly Market[]> = {
  'USDT-FUTURES': [
    { symbol: 'BTCUSDT', base: 'BTC', price: [20_000, 110_000, 1], volume: [0.001, 2, 4] },
    { symbol: 'ETHUSDT', base: 'ETH', price: [1_000, 4_500, 2], volume: [0.01, 30, 3] },
    { symbol: 'SOLUSDT', base: 'SOL', price: [10, 300, 3], volume: [0.1, 500, 1] },
    { symbol: 'XRPUSDT', base: 'XRP', price: [0.3, 3.5, 4], volume: [10, 50_000, 0] },
  ],
  'COIN-FUTURES': [
    { symbol: 'BTCUSD', base: 'BTC', price: [20_000, 110_000, 1], volume: [0.001, 1, 4] },
    { symbol: 'ETHUSD', base: 'ETH', price: [1_000, 4_500, 2], volume: [0.01, 20, 3] },
    // A delivery contract: base coin, USD, month code and year (docs/platform.md, "Fills").
    { symbol: 'BTCUSDZ25', base: 'BTC', price: [20_000, 110_000, 1], volume: [0.001, 1, 4] },
  ],
  'USDC-FUTURES': [
    { symbol: 'BTCPERP', base: 'BTC', price: [20_000, 110_000, 1], volume: [0.001, 1, 4] },
    { symbol: 'ETHPERP', base: 'ETH', price: [1_000, 4_500, 2], volume: [0.01, 20, 3] },
  ],
};

const HEDGE_SIDES: readonly (readonly [string, number])[] = [
  ['open', 50],
  ['close', 40],
  ['burst_close_long', 1],
  ['burst_close_short', 1],
  ['reduce_close_long', 1.5],
  ['reduce_close_short', 1.5],
  ['offset_close_long', 1],
  ['offset_close_short', 1],
  ['delivery_close_long', 0.5],
  ['delivery_close_short', 0.5],
  ['dte_sys_adl_close_long', 0.5],
  ['dte_sys_adl_close_short', 0.5],
];
const ONE_WAY_SIDES: readonly (readonly [string, number])[] = [
  ['buy_single', 42],
  ['sell_single', 42],
  ['reduce_buy_single', 3],
  ['reduce_sell_single', 3],
  ['burst_buy_single', 2],
  ['burst_sell_single', 2],
  ['delivery_buy_single', 1],
  ['delivery_sell_single', 1],
  ['dte_sys_adl_buy_in_single_side_mode', 1],
  ['dte_sys_adl_sell_in_single_side_mode', 1],
];

/** The margin coin a fill settles in when it does not say (docs/ledger.md; docs/platform.md, "Fills"). */
export function defaultMarginCoin(productType: FillProductType, base: string): string {
  if (productType === 'USDT-FUTURES') return 'USDT';
  if (productType === 'USDC-FUTURES') return 'USDC';
  return base;
}

function sideOf(rng: Rng, tradeSide: string): string {
  if (/long$|sell_single|sell_in/.test(tradeSide)) return 'sell';
  if (/short$|buy_single|buy_in/.test(tradeSide)) return 'buy';
  return rng.pick(['buy', 'sell']);
}

/** `price` at `places` decimals, moved by up to 0.1% either way (a fill is near the hour's close, not on it). */
function nearClose(rng: Rng, close: PriceUnits, places: number): bigint {
  const moved = close.units * BigInt(10_000 + rng.int(-10, 10));
  return mulUnits(moved, close.places + 4, 1n, 0, places);
}

/** A fill's fees: in its margin coin, and now and then a taker's fee paid in BGB besides. */
function feeDetailOf(rng: Rng, fee: { marginCoin: string; feeUnits: bigint; maker: boolean }): Payload[] {
  const { marginCoin, feeUnits, maker } = fee;
  // totalDeductionFee comes as "0", null (real fills) or "" (real spot fills) when nothing was deducted.
  const feeDetail: Payload[] = [
    {
      deduction: 'no',
      feeCoin: marginCoin,
      totalDeductionFee: rng.weighted([
        ['0', 90],
        [null, 6],
        ['', 4],
      ] as const),
      totalFee: formatUnits(feeUnits, 8),
    },
  ];
  if (!maker && rng.chance(0.05)) {
    // A fee paid in BGB: the docs' example writes totalFee negative and totalDeductionFee equal to it; a public
    // client reads it positive, so some are (docs/platform.md, "Fills"). Either way it is paid.
    const bgb = formatUnits((rng.chance(0.2) ? 1n : -1n) * randomUnits(rng, 0.0001, 0.5, 8), 8);
    feeDetail.push({ deduction: 'yes', feeCoin: 'BGB', totalDeductionFee: bgb, totalFee: bgb });
  }
  return feeDetail;
}

function fill(
  rng: Rng,
  productType: FillProductType,
  ts: number,
  tradeId: string,
  orderId: string,
  priceAt: (symbol: string, ts: number) => PriceUnits,
): Payload {
  const market = rng.pick(MARKETS[productType]);
  const hedge = rng.chance(0.6);
  const tradeSide = rng.weighted(hedge ? HEDGE_SIDES : ONE_WAY_SIDES);
  const system = /^(burst|reduce|offset|delivery|dte)/.test(tradeSide);
  // A plain one-way buy/sell may open or reduce a position; only closing fills realise profit.
  const closing = tradeSide === 'open' ? false : tradeSide.endsWith('_single') && !system ? rng.chance(0.4) : true;
  const [, , pPlaces] = market.price;
  const [vMin, vMax, vPlaces] = market.volume;
  const price = nearClose(rng, priceAt(`${market.base}USDT`, ts), pPlaces);
  const volume = randomUnits(rng, vMin, vMax, vPlaces);
  const quote = mulUnits(price, pPlaces, volume, vPlaces, pPlaces + vPlaces);
  const marginCoin = defaultMarginCoin(productType, market.base);
  const maker = !system && rng.chance(0.35);
  const rate = maker ? 2n : 6n; // 0.0002 and 0.0006, as units of 10^-4
  const feeBase =
    productType === 'COIN-FUTURES'
      ? mulUnits(volume, vPlaces, rate, 4, 8)
      : mulUnits(quote, pPlaces + vPlaces, rate, 4, 8);
  // Makers sometimes earn a rebate: a positive totalFee.
  const feeUnits = maker && rng.chance(0.3) ? feeBase / 2n : -feeBase;
  const feeDetail = feeDetailOf(rng, { marginCoin, feeUnits, maker });
  const profitScale = marginCoin === 'USDT' || marginCoin === 'USDC' ? [0.01, 2_500] : [0.00000001, 0.08];
  const profit = closing
    ? formatUnits(
        (rng.chance(0.55) ? 1n : -1n) * randomUnits(rng, profitScale[0] as number, profitScale[1] as number, 8),
        8,
      )
    : '0';
  const record: Payload = {
    tradeId,
    symbol: market.symbol,
    orderId,
    price: formatUnits(price, pPlaces),
    baseVolume: formatUnits(volume, vPlaces),
    quoteVolume: formatUnits(quote, pPlaces + vPlaces),
    // Delivery and ADL fills carry no fee: the live service writes null for the whole list.
    feeDetail: /^(delivery|dte)/.test(tradeSide) && rng.chance(0.5) ? null : feeDetail,
    side: sideOf(rng, tradeSide),
    profit,
    enterPointSource: system ? 'SYS' : rng.pick(['WEB', 'API', 'API', 'ANDROID', 'IOS']),
    tradeSide,
    posMode: hedge ? 'hedge_mode' : 'one_way_mode',
    tradeScope: maker ? 'maker' : 'taker',
    cTime: String(ts),
  };
  // Since 2025 the live service adds marginCoin to some fills; both shapes must be handled.
  if (rng.chance(0.5)) record['marginCoin'] = marginCoin;
  return record;
}

/**
 * Futures fills for the three live product types: records on every 7-day seam and the range ends, a
 * 15-day gap so some weekly windows are empty, and in USDT-FUTURES runs of 137 and 100 fills (one order)
 * in one millisecond, plus a run of 103 exactly on a seam.
 */
export function generateFills(
  options: GenerateOptions,
  rng: Rng,
  priceAt: (symbol: string, ts: number) => PriceUnits,
): Partition[] {
  const { from, to, records } = options;
  const gaps = fillGap(from, to);
  const shares: Record<FillProductType, number> = { 'USDT-FUTURES': 0.6, 'COIN-FUTURES': 0.25, 'USDC-FUTURES': 0.15 };
  return FILL_PRODUCT_TYPES.map((name, index) => {
    const prng = rng.fork(name);
    const runs =
      name === 'USDT-FUTURES'
        ? [
            ...run(anchor(from, to, 0.21), 137),
            ...run(anchor(from, to, 0.41), 100),
            ...(to - from > 21 * DAY_MS ? run(from + 14 * DAY_MS, 103) : []),
          ]
        : [];
    const times = [
      ...edgeTimes(from, to, [7 * DAY_MS], gaps),
      ...randomTimes(prng, Math.round(records * shares[name]), from - MARGIN_BEYOND_MS, to + MARGIN_BEYOND_MS, gaps),
      ...runs,
    ];
    let orderId = '';
    let previousTs = Number.NaN;
    const fills = buildRecords(times, index, prng, (ts, tradeId) => {
      // Fills of one millisecond belong to one order; otherwise an order sometimes fills twice in a row.
      if (ts !== previousTs && (orderId === '' || prng.chance(0.75))) orderId = String(BigInt(tradeId) + 7_777n);
      previousTs = ts;
      return { record: fill(prng, name, ts, tradeId, orderId, priceAt) };
    });
    return { name, records: fills };
  });
}
