import type { AccountType, BalanceKey } from '../accounts.js';
import type { PriceUnits } from '../markets.js';
import type { Rng } from '../rng.js';
import type { RetailBook } from './book.js';

/**
 * What every step of the retail account works with: the account as written so far, its draws, and the candles' prices.
 */
export interface RetailContext {
  book: RetailBook;
  rng: Rng;
  priceAt: (symbol: string, ts: number) => PriceUnits;
}

/**
 * A balance of the retail account: an account type's asset (in isolated margin, of one pair).
 *
 * @example
 * c.book.move(balance('spot', 'USDT'), 100_00000000n);
 */
export const balance = (accountType: AccountType, asset: string, symbol = ''): BalanceKey => ({
  accountType,
  asset,
  symbol,
});

/**
 * What `accountType` holds of `asset` now.
 *
 * @example
 * held(c, 'spot', 'USDT'); // units of 10^-8
 */
export const held = (c: RetailContext, accountType: AccountType, asset: string, symbol = ''): bigint =>
  c.book.held(balance(accountType, asset, symbol));

/**
 * A share of `units` drawn between `low` and `high` (fractions, such as 0.05 and 0.3), rounded down to `places`
 * decimals (of the 8 units carry).
 *
 * @example
 * shareOf(rng, 1_000_00000000n, 0.05, 0.3, 2); // between 50 and 300, in cents
 */
export function shareOf(rng: Rng, units: bigint, low: number, high: number, places = 8): bigint {
  const permille = BigInt(rng.int(Math.round(low * 1000), Math.round(high * 1000)));
  const raw = (units * permille) / 1000n;
  const step = 10n ** BigInt(8 - places);
  return raw - (raw % step);
}

/**
 * An amount drawn between `low` and `high` whole coins, at `places` decimals, as units of 10^-8.
 *
 * @example
 * amountBetween(rng, 500, 3_000, 2); // 500.00 to 3000.00
 */
export function amountBetween(rng: Rng, low: number, high: number, places: number): bigint {
  const step = 10 ** places;
  return BigInt(rng.int(Math.round(low * step), Math.round(high * step))) * 10n ** BigInt(8 - places);
}
