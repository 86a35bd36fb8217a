import { balancesAt, settleAccount, usdtValuation } from '../accounts.js';
import { pricer } from '../markets.js';
import { DAY_MS, type Dataset } from '../types.js';
import { createRng, type Rng } from '../rng.js';
import { retailAdverts } from './adverts.js';
import { RetailBook } from './book.js';
import { runRetailStory } from './story.js';

/** What the retail account is generated from. */
export interface RetailOptions {
  /** Its seed (the CLI's default: `retail`). */
  seed: string;
  /** The range of its last year, Unix ms, half-open: futures are traded in it, and only in it. */
  from: number;
  to: number;
  /** The seed of the candles the server serves, which its trades are priced at (default: `seed`). */
  priceSeed?: string;
  /** Its registration, Unix ms, before `from` (default: 790 to 830 days before `from`, in the daytime). */
  openedAt?: number;
  /** Everything but USDT sold before `to`, and no margin (runRetailStory): its year's coins are not held at the end. */
  soldOff?: boolean;
}

/** About two years and two months before `from`, at an hour someone opens an account. */
function registration(rng: Rng, from: number): number {
  const day = from - rng.int(790, 830) * DAY_MS;
  return Math.floor(day / DAY_MS) * DAY_MS + rng.int(7, 20) * 3_600_000 + rng.int(0, 3_599_999);
}

/**
 * A believable retail account (docs/simulator.md, "The retail account"), a pure function of the options: registered
 * about two years before `from` with every balance zero, funded by its own deposits and P2P buys, trading spot and on
 * margin and saving in earn from then on, and in `[from, to)` trading USDT-FUTURES too. Every trade is priced inside
 * the hour's candle the simulator serves and sized from what is held at its instant; nothing goes below zero.
 *
 * @example
 * const data = generateRetailDataset({ seed: 'retail', from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) });
 */
export function generateRetailDataset(options: RetailOptions): Dataset {
  const rng = createRng(`ledgerpipe-sim-retail:${options.seed}`);
  const openedAt = options.openedAt ?? registration(rng.fork('registration'), options.from);
  if (openedAt >= options.from)
    throw new RangeError('the retail account must be registered before the range it trades futures in');
  const priceAt = pricer(options.priceSeed ?? options.seed);
  const book = new RetailBook();
  runRetailStory(
    { book, rng: rng.fork('story'), priceAt },
    { openedAt, from: options.from, to: options.to, soldOff: options.soldOff === true },
  );
  const streams = { ...book.streams(rng.fork('ids')), p2p_advertisements: retailAdverts(options, rng.fork('adverts')) };
  const account = settleAccount(streams);
  return {
    from: options.from,
    to: options.to,
    accountMode: 'classic',
    openedAt,
    streams,
    balances: usdtValuation(balancesAt(account, Number.POSITIVE_INFINITY), priceAt, options.to),
    account,
    dropped: [],
  };
}
