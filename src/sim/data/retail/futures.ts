import { priceInCandle } from '../candle-price.js';
import { formatUnits, mulUnits } from '../decimal.js';
import type { PriceUnits } from '../markets.js';
import type { Payload } from '../types.js';
import { futureTaxRecord, spotTaxRecord } from '../record-shapes.js';
import { balance, held, type RetailContext } from './context.js';

const EIGHT_HOURS_MS = 8 * 3_600_000;
const futures = balance('usdt_futures', 'USDT');

/**
 * The USDT-FUTURES contracts the retail account trades, and the decimals of their sizes (the contracts' volumePlace).
 */
export const RETAIL_CONTRACTS: Readonly<Record<string, number>> = { BTCUSDT: 3, ETHUSDT: 2, SOLUSDT: 1 };

/** Taker and maker fees per 10,000 of the notional: 0.06% and 0.02%, the contracts' takerFeeRate and makerFeeRate. */
const TAKER = 6n;
const MAKER = 2n;

/** n / d rounded half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= (d < 0n ? -d : d) ? q + (n < 0n !== d < 0n ? -1n : 1n) : q;
}

/**
 * Moves `amount` of USDT between spot and USDT-FUTURES: the futures tax record (`trans_from_exchange` into futures,
 * `trans_to_exchange` out) and its spot mirror ("Transfer out", "Transfer in"), at one time.
 *
 * @example
 * futuresTransfer(c, ts, 5_000_00000000n); // spot to futures
 */
export function futuresTransfer(c: RetailContext, ts: number, amount: bigint): void {
  if (amount === 0n) return;
  const into = amount > 0n;
  c.book.write('futures_tax_records', 'USDT-FUTURES', ts, [
    (id) => ({
      record: futureTaxRecord({
        id,
        ts,
        type: into ? 'trans_from_exchange' : 'trans_to_exchange',
        symbol: '',
        marginCoin: 'USDT',
        amount,
      }),
    }),
  ]);
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({
      record: spotTaxRecord({ id, ts, type: into ? 'Transfer out' : 'Transfer in', coin: 'USDT', amount: -amount }),
    }),
  ]);
  c.book.move(balance('spot', 'USDT'), -amount);
  c.book.move(futures, amount);
}

/** One fill as planned: when, at what price, its share of the order, and whether it rested on the book. */
interface FillShape {
  ts: number;
  price: PriceUnits;
  weight: bigint;
  maker: boolean;
}

/** One fill as written: its shape and its quantity, in units of 10^-8 of the coin. */
type Fill = FillShape & { qty: bigint };

/** A position of the retail account: its contract, direction, times, and its size as a multiple of the margin. */
export interface FuturesPosition {
  symbol: string;
  long: boolean;
  open: number;
  close: number;
  /** The notional at opening over what USDT-FUTURES holds, in thousandths (500 to 2,500). */
  leveragePermille: number;
}

/** 1 to 3 fills a few seconds apart from `at`, each priced inside its hour's candle. */
function shapes(c: RetailContext, symbol: string, at: number, makerChance: number): FillShape[] {
  let ts = at;
  return Array.from({ length: c.rng.int(1, 3) }, () => {
    ts += c.rng.int(150, 4_000);
    return {
      ts,
      price: priceInCandle(c.priceAt, symbol, ts, c.rng.next()),
      weight: BigInt(c.rng.int(1, 10)),
      maker: c.rng.chance(makerChance),
    };
  });
}

/** `total` over the fills by their weights, each a whole number of lots; too few lots for them all: one fill. */
function sized(fills: readonly FillShape[], total: bigint, step: bigint): Fill[] {
  const lots = total / step;
  if (lots < BigInt(fills.length)) return [{ ...(fills[0] as FillShape), qty: total }];
  const sum = fills.reduce((a, f) => a + f.weight, 0n);
  const shares = fills.map((f) => ((lots - BigInt(fills.length)) * f.weight) / sum + 1n);
  shares[0] = (shares[0] as bigint) + lots - shares.reduce((a, b) => a + b, 0n);
  return fills.map((f, i) => ({ ...f, qty: (shares[i] as bigint) * step }));
}

/**
 * One position on USDT-FUTURES, hedge mode, from its first opening fill to its last closing one: 1 to 3 fills to
 * open and to close (each priced inside its hour's candle, charged the taker or maker fee of its notional), the
 * funding fee at every 8-hour settlement in between (`contract_main_settle_fee`: the position's value at the hour's
 * close times a rate of -0.01% to 0.03%, paid by longs when positive), and the profit of each closing fill against
 * the average opening price. Sized at `leveragePermille` of the margin, halved until the margin never falls below a
 * quarter of what it was; skipped when even the smallest lot cannot. Writes the whole position at once: nothing else
 * moves USDT-FUTURES while it is open.
 *
 * @example
 * futuresPosition(c, { symbol: 'BTCUSDT', long: true, open, close, leveragePermille: 1500 });
 */
export function futuresPosition(c: RetailContext, p: FuturesPosition): void {
  const margin = held(c, 'usdt_futures', 'USDT');
  const step = 10n ** BigInt(8 - (RETAIL_CONTRACTS[p.symbol] as number));
  const opening = shapes(c, p.symbol, p.open, 0.4);
  const closing = shapes(c, p.symbol, p.close, 0.3);
  const rates: { at: number; ppm: bigint }[] = [];
  for (let at = Math.ceil((p.open + 1) / EIGHT_HOURS_MS) * EIGHT_HOURS_MS; at < p.close; at += EIGHT_HOURS_MS) {
    const roll = c.rng.next();
    rates.push({ at, ppm: BigInt(roll < 0.6 ? 100 : roll < 0.9 ? c.rng.int(20, 300) : -c.rng.int(1, 100)) });
  }
  const orderIds: [string, string] = [
    `${p.open}${String(c.rng.int(100_000, 999_999))}`,
    `${p.close}${String(c.rng.int(100_000, 999_999))}`,
  ];
  const first = opening[0] as FillShape;
  let total = (((margin * BigInt(p.leveragePermille)) / 1000n) * 10n ** BigInt(first.price.places)) / first.price.units;
  for (total -= total % step; total >= step; total = (total / 2n / step) * step) {
    const plan = planPosition(c, p, sized(opening, total, step), sized(closing, total, step), rates);
    if (plan.lowest * 4n >= margin) return writePosition(c, p, plan, orderIds);
  }
}

interface PlannedPosition {
  open: { fill: Fill; fee: bigint }[];
  close: { fill: Fill; fee: bigint; profit: bigint }[];
  funding: { at: number; amount: bigint }[];
  /** The lowest the margin gets while the position lives. */
  lowest: bigint;
}

function planPosition(
  c: RetailContext,
  p: FuturesPosition,
  opening: readonly Fill[],
  closing: readonly Fill[],
  rates: readonly { at: number; ppm: bigint }[],
): PlannedPosition {
  const dir = p.long ? 1n : -1n;
  const total = opening.reduce((s, f) => s + f.qty, 0n);
  const places = (opening[0] as Fill).price.places;
  const feeOf = (f: Fill) =>
    mulUnits(mulUnits(f.qty, 8, f.price.units, f.price.places, 8), 8, f.maker ? MAKER : TAKER, 4, 8);
  // Each closing fill's profit against the average opening price: (its price x total - the opening cost) x its qty /
  // total.
  const cost = opening.reduce((s, f) => s + f.price.units * f.qty, 0n);
  const open = opening.map((fill) => ({ fill, fee: feeOf(fill) }));
  const close = closing.map((fill) => ({
    fill,
    fee: feeOf(fill),
    profit: divRound(dir * (fill.price.units * total - cost) * fill.qty, total * 10n ** BigInt(places)),
  }));
  const funding = rates.map(({ at, ppm }) => {
    const mark = c.priceAt(p.symbol, at - 1);
    return { at, amount: -dir * divRound(total * mark.units * ppm, 10n ** BigInt(mark.places) * 1_000_000n) };
  });
  let running = held(c, 'usdt_futures', 'USDT');
  let lowest = running;
  for (const s of [
    ...open.map((o) => -o.fee),
    ...funding.map((f) => f.amount),
    ...close.map((x) => x.profit - x.fee),
  ]) {
    running += s;
    if (running < lowest) lowest = running;
  }
  return { open, close, funding, lowest };
}

function fillRecord(
  tradeId: string,
  orderId: string,
  symbol: string,
  f: Fill,
  x: { fee: bigint; profit: bigint; side: string; tradeSide: string },
): Payload {
  const volumePlaces = RETAIL_CONTRACTS[symbol] as number;
  const price = formatUnits(f.price.units, f.price.places);
  const volume = f.qty / 10n ** BigInt(8 - volumePlaces);
  return {
    tradeId,
    symbol,
    orderId,
    price,
    baseVolume: formatUnits(volume, volumePlaces),
    quoteVolume: formatUnits(f.price.units * volume, f.price.places + volumePlaces),
    feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: formatUnits(-x.fee, 8) }],
    side: x.side,
    profit: formatUnits(x.profit, 8),
    enterPointSource: 'WEB',
    tradeSide: x.tradeSide,
    posMode: 'hedge_mode',
    tradeScope: f.maker ? 'maker' : 'taker',
    cTime: String(f.ts),
    marginCoin: 'USDT',
  };
}

function writePosition(
  c: RetailContext,
  p: FuturesPosition,
  plan: PlannedPosition,
  [openId, closeId]: [string, string],
): void {
  // Hedge mode names the position's side on both its fills: buy opens and closes a long (the v2 docs' place-order).
  const side = p.long ? 'buy' : 'sell';
  for (const o of plan.open) {
    c.book.write('futures_fills', 'USDT-FUTURES', o.fill.ts, [
      (id) => ({
        record: fillRecord(id, openId, p.symbol, o.fill, { fee: o.fee, profit: 0n, side, tradeSide: 'open' }),
      }),
    ]);
    c.book.move(futures, -o.fee);
  }
  for (const f of plan.funding) {
    c.book.write('futures_tax_records', 'USDT-FUTURES', f.at, [
      (id) => ({
        record: futureTaxRecord({
          id,
          ts: f.at,
          type: 'contract_main_settle_fee',
          symbol: p.symbol,
          marginCoin: 'USDT',
          amount: f.amount,
        }),
      }),
    ]);
    c.book.move(futures, f.amount);
  }
  for (const x of plan.close) {
    c.book.write('futures_fills', 'USDT-FUTURES', x.fill.ts, [
      (id) => ({
        record: fillRecord(id, closeId, p.symbol, x.fill, { fee: x.fee, profit: x.profit, side, tradeSide: 'close' }),
      }),
    ]);
    c.book.move(futures, x.profit - x.fee);
  }
}
