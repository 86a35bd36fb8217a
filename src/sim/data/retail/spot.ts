import { priceInCandle } from '../candle-price.js';
import { mulUnits } from '../decimal.js';
import { spotTaxRecord } from '../record-shapes.js';
import { balance, held, shareOf, type RetailContext } from './context.js';

/** The coins the retail account trades against USDT, with the decimals it buys them in. */
export const RETAIL_COINS: Readonly<Record<string, number>> = { BTC: 6, ETH: 4, SOL: 2 };

/** The spot fee: 0.1% of what was received, in that coin (the platform's standard spot rate). */
const FEE_PER_MILLE = 1n;

/** A bizOrderId for the legs of one order: a snowflake-like number from its time. */
const orderId = (c: RetailContext, ts: number): string => `${ts}${String(c.rng.int(100_000, 999_999))}`;

/**
 * One spot order against USDT at a price inside the hour's candle (candle-price.ts): a buy spends `low` to `high`
 * of the USDT spot holds, a sell sells that share of the coin. Two "Buy" or "Sell" legs and a "Transaction fee
 * deduct" (0.1% of what was received, in that coin) under one bizOrderId, in one millisecond. Returns the fee's
 * value in USDT (for the rebates), or 0n when nothing was traded.
 *
 * @example
 * spotOrder(c, ts, { side: 'buy', coin: 'BTC', low: 0.05, high: 0.3 });
 */
export function spotOrder(
  c: RetailContext,
  ts: number,
  o: { side: 'buy' | 'sell'; coin: string; low: number; high: number },
): bigint {
  const price = priceInCandle(c.priceAt, `${o.coin}USDT`, ts, c.rng.next());
  const places = RETAIL_COINS[o.coin] as number;
  const step = 10n ** BigInt(8 - places);
  let qty: bigint;
  if (o.side === 'buy') {
    const spend = shareOf(c.rng, held(c, 'spot', 'USDT'), o.low, o.high);
    qty = (spend * 10n ** BigInt(price.places)) / price.units;
    qty -= qty % step;
  } else {
    qty = shareOf(c.rng, held(c, 'spot', o.coin), o.low, o.high, places);
  }
  const value = mulUnits(qty, 8, price.units, price.places, 8);
  // Orders worth less than 10 USDT are below what the platform accepts.
  if (value < 10_00000000n || (o.side === 'buy' && value > held(c, 'spot', 'USDT'))) return 0n;
  const id = orderId(c, ts);
  const [gotCoin, got, gaveCoin, gave] = o.side === 'buy' ? [o.coin, qty, 'USDT', value] : ['USDT', value, o.coin, qty];
  const fee = (got * FEE_PER_MILLE) / 1000n;
  const type = o.side === 'buy' ? 'Buy' : 'Sell';
  c.book.write('spot_tax_records', '', ts, [
    (rid) => ({ record: spotTaxRecord({ id: rid, ts, type, coin: gotCoin, amount: got, bizOrderId: id }) }),
    (rid) => ({ record: spotTaxRecord({ id: rid, ts, type, coin: gaveCoin, amount: -gave, bizOrderId: id }) }),
    (rid) => ({
      record: spotTaxRecord({
        id: rid,
        ts,
        type: 'Transaction fee deduct',
        coin: gotCoin,
        amount: -fee,
        bizOrderId: id,
      }),
    }),
  ]);
  c.book.move(balance('spot', gotCoin), got);
  c.book.move(balance('spot', gaveCoin), -gave);
  c.book.move(balance('spot', gotCoin), -fee);
  return o.side === 'buy' ? mulUnits(fee, 8, price.units, price.places, 8) : fee;
}

/**
 * A conversion ("Exchange spending" and "Exchange income", no fee) between USDT and a coin, at a price inside the
 * hour's candle: `low` to `high` of what spot holds of the coin given.
 *
 * @example
 * convert(c, ts, { from: 'USDT', to: 'ETH', low: 0.02, high: 0.15 });
 */
export function convert(
  c: RetailContext,
  ts: number,
  x: { from: string; to: string; low: number; high: number },
): void {
  const coin = x.from === 'USDT' ? x.to : x.from;
  const price = priceInCandle(c.priceAt, `${coin}USDT`, ts, c.rng.next());
  const given = shareOf(c.rng, held(c, 'spot', x.from), x.low, x.high);
  const received =
    x.from === 'USDT'
      ? (given * 10n ** BigInt(price.places)) / price.units
      : mulUnits(given, 8, price.units, price.places, 8);
  const worth = x.from === 'USDT' ? given : received;
  if (worth < 10_00000000n || received <= 0n) return;
  writeConversion(c, ts, { from: x.from, to: x.to, given, received });
}

/**
 * All that spot holds of `coin` converted to USDT at once, at a price inside the hour's candle, however little it is
 * worth (the platform converts small balances too): nothing of the coin is left.
 *
 * @example
 * convertAll(c, ts, 'BTC');
 */
export function convertAll(c: RetailContext, ts: number, coin: string): void {
  const given = held(c, 'spot', coin);
  if (given <= 0n) return;
  const price = priceInCandle(c.priceAt, `${coin}USDT`, ts, c.rng.next());
  writeConversion(c, ts, { from: coin, to: 'USDT', given, received: mulUnits(given, 8, price.units, price.places, 8) });
}

/** A conversion's two records, "Exchange spending" and "Exchange income" under one bizOrderId, and its moves. */
function writeConversion(
  c: RetailContext,
  ts: number,
  x: { from: string; to: string; given: bigint; received: bigint },
): void {
  const id = orderId(c, ts);
  c.book.write('spot_tax_records', '', ts, [
    (rid) => ({
      record: spotTaxRecord({ id: rid, ts, type: 'Exchange spending', coin: x.from, amount: -x.given, bizOrderId: id }),
    }),
    (rid) => ({
      record: spotTaxRecord({ id: rid, ts, type: 'Exchange income', coin: x.to, amount: x.received, bizOrderId: id }),
    }),
  ]);
  c.book.move(balance('spot', x.from), -x.given);
  c.book.move(balance('spot', x.to), x.received);
}

/**
 * Moves `amount` of `coin` between spot and earn (flexible savings): "Subscribe" into earn, "Redemption" out of it.
 * Earn has no records of its own: the spot record is both sides (accounts.ts).
 *
 * @example
 * earnMove(c, ts, 'USDT', 5_000_00000000n, 'subscribe');
 */
export function earnMove(
  c: RetailContext,
  ts: number,
  coin: string,
  amount: bigint,
  way: 'subscribe' | 'redeem',
): void {
  if (amount <= 0n) return;
  const into = way === 'subscribe';
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({
      record: spotTaxRecord({ id, ts, type: into ? 'Subscribe' : 'Redemption', coin, amount: into ? -amount : amount }),
    }),
  ]);
  c.book.move(balance('spot', coin), into ? -amount : amount);
  c.book.move(balance('earn', coin), into ? amount : -amount);
}

/**
 * Interest on what earn holds of `coin`, for `days` days at `aprBasisPoints` a year (500 = 5%), paid into spot as
 * one "Interest" record: the savings pay daily, the account sees them in batches.
 *
 * @example
 * payInterest(c, ts, 'USDT', 500, 7);
 */
export function payInterest(c: RetailContext, ts: number, coin: string, aprBasisPoints: number, days: number): bigint {
  const interest = (held(c, 'earn', coin) * BigInt(aprBasisPoints) * BigInt(days)) / (10_000n * 365n);
  if (interest <= 0n) return 0n;
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({ record: spotTaxRecord({ id, ts, type: 'Interest', coin, amount: interest }) }),
  ]);
  c.book.move(balance('spot', coin), interest);
  return interest;
}

/**
 * A "Trading fee rebate" in USDT: `amount`, a tenth of the spot fees of the month before (fee-rebate programmes
 * pay back a part of what was paid, never more).
 *
 * @example
 * rebate(c, ts, 2_50000000n);
 */
export function rebate(c: RetailContext, ts: number, amount: bigint): void {
  if (amount < 1_000_000n) return;
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({ record: spotTaxRecord({ id, ts, type: 'Trading fee rebate', coin: 'USDT', amount }) }),
  ]);
  c.book.move(balance('spot', 'USDT'), amount);
}
