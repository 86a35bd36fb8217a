import { priceInCandle } from '../candle-price.js';
import { mulUnits } from '../decimal.js';
import { marginRecord, spotTaxRecord } from '../record-shapes.js';
import { balance, held, shareOf, type RetailContext } from './context.js';
import { RETAIL_COINS } from './spot.js';

const MINUTE_MS = 60_000;
/** Interest on what is borrowed: 0.03% a day (about 11% a year), the order of the platform's USDT margin rates. */
const INTEREST_PER_DAY_PER_100K = 30n;

/** A margin position, from the transfer in to the transfer out: its account, pair and the times of its steps. */
export interface MarginEpisode {
  marginType: 'crossed' | 'isolated';
  coin: string;
  /** The transfer in, the borrow and the buy follow one another a minute apart from `open`. */
  open: number;
  /** The sell, the interest, the repayment and the transfer out, a minute apart from `close`. */
  close: number;
}

/**
 * One trade of the episode's pair in its margin account at `ts`: a buy of the coin for `spend` USDT, or a sell of
 * `spend` of the coin; its fee is paid in what it gets.
 */
function marginTrade(
  c: RetailContext,
  e: MarginEpisode,
  key: (asset: string) => ReturnType<typeof balance>,
  order: { ts: number; side: 'buy' | 'sell'; spend: bigint },
): void {
  const { ts, side, spend } = order;
  const symbol = `${e.coin}USDT`;
  const price = priceInCandle(c.priceAt, symbol, ts, c.rng.next());
  const step = 10n ** BigInt(8 - (RETAIL_COINS[e.coin] as number));
  // A buy in the coin's lot; a sell of all the position holds, its fee included.
  const bought = (spend * 10n ** BigInt(price.places)) / price.units;
  const qty = side === 'buy' ? bought - (bought % step) : spend;
  const value = mulUnits(qty, 8, price.units, price.places, 8);
  const [gotCoin, got, gaveCoin, gave] = side === 'buy' ? [e.coin, qty, 'USDT', value] : ['USDT', value, e.coin, qty];
  const fee = got / 1000n;
  c.book.write('margin_records', e.marginType, ts, [
    (id) => ({ record: marginRecord({ id, ts, type: 'deal_in', coin: gotCoin, symbol, amount: got, fee: -fee }) }),
    (id) => ({ record: marginRecord({ id, ts, type: 'deal_out', coin: gaveCoin, symbol, amount: -gave }) }),
  ]);
  c.book.move(key(gotCoin), got - fee);
  c.book.move(key(gaveCoin), -gave);
}

/**
 * One leveraged spot position on margin, recorded as the platform records it (docs/platform.md, "Tax records"):
 * USDT moved in from spot (`transfer_in`, with its spot "Transfer out"), as much again borrowed (`borrow`), the coin
 * bought with nearly all of it (`deal_in` of the coin, its 0.1% fee on it, and `deal_out` of USDT, in one
 * millisecond), and at `close` the coin sold (`deal_in` USDT with its fee, `deal_out` of the coin), the interest
 * paid (`interest_repay`), the loan repaid (`repay`) and every USDT left moved back to spot (`transfer_out`, with its
 * spot "Transfer in"). Outflows are written negative. Twice the collateral at most: a fall of the coin by half would
 * be needed to leave less than the loan, which the candles never make inside a position. Returns the two steps to
 * run at their times.
 *
 * @example
 * const [opening, closing] = marginEpisode(c, { marginType: 'crossed', coin: 'BTC', open, close });
 */
export function marginEpisode(c: RetailContext, e: MarginEpisode): [() => void, () => void] {
  const symbol = `${e.coin}USDT`;
  const accountType = e.marginType === 'crossed' ? 'margin_crossed' : 'margin_isolated';
  // In crossed margin only trades name their pair; in isolated margin every record does.
  const single = e.marginType === 'crossed' ? '' : symbol;
  const key = (asset: string) => balance(accountType, asset, e.marginType === 'crossed' ? '' : symbol);
  let borrowed = 0n;
  const write = (ts: number, type: string, coin: string, amount: bigint, fee = 0n, pair = single) =>
    c.book.write('margin_records', e.marginType, ts, [
      (id) => ({ record: marginRecord({ id, ts, type, coin, symbol: pair, amount, fee }) }),
    ]);
  const spotSide = (ts: number, amount: bigint) => {
    c.book.write('spot_tax_records', '', ts, [
      (id) => ({
        record: spotTaxRecord({ id, ts, type: amount < 0n ? 'Transfer out' : 'Transfer in', coin: 'USDT', amount }),
      }),
    ]);
    c.book.move(balance('spot', 'USDT'), amount);
  };
  const trade = (ts: number, side: 'buy' | 'sell', spend: bigint) => marginTrade(c, e, key, { ts, side, spend });
  const opening = () => {
    const collateral = shareOf(c.rng, held(c, 'spot', 'USDT'), 0.1, 0.25, 2);
    if (collateral < 100_00000000n) return;
    spotSide(e.open, -collateral);
    write(e.open, 'transfer_in', 'USDT', collateral);
    c.book.move(key('USDT'), collateral);
    borrowed = collateral;
    write(e.open + MINUTE_MS, 'borrow', 'USDT', borrowed);
    c.book.move(key('USDT'), borrowed);
    trade(e.open + 2 * MINUTE_MS, 'buy', ((collateral + borrowed) * 98n) / 100n);
  };
  const closing = () => {
    if (borrowed === 0n) return;
    trade(e.close, 'sell', c.book.held(key(e.coin)));
    const days = BigInt(Math.ceil((e.close - e.open) / 86_400_000));
    const interest = (borrowed * INTEREST_PER_DAY_PER_100K * days) / 100_000n;
    write(e.close + MINUTE_MS, 'interest_repay', 'USDT', -interest);
    c.book.move(key('USDT'), -interest);
    write(e.close + 2 * MINUTE_MS, 'repay', 'USDT', -borrowed);
    c.book.move(key('USDT'), -borrowed);
    const left = c.book.held(key('USDT'));
    write(e.close + 3 * MINUTE_MS, 'transfer_out', 'USDT', -left);
    c.book.move(key('USDT'), -left);
    spotSide(e.close + 3 * MINUTE_MS, left);
  };
  return [opening, closing];
}
