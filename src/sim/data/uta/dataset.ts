import { UTA_FINANCIAL_PARTITIONS } from '../../../streams/uta-financial-records.js';
import { UTA_TAX_PARTITIONS } from '../../../streams/uta-tax-records.js';
import { balancesAt, settleAccount, usdtValuation } from '../accounts.js';
import { pricer } from '../markets.js';
import { DAY_MS, type Dataset, type PagedStream } from '../model.js';
import { createRng } from '../rng.js';
import { CLASSIC_PARTITIONS, RetailBook } from '../retail/book.js';
import { runUnifiedStory } from './story.js';

/** What the unified account is generated from. */
export interface UnifiedOptions {
  /** Its seed (the CLI's default: `retail`, as the classic account's). */
  seed: string;
  /** The range of its year, Unix ms, half-open: it opens a few days into it. */
  from: number;
  to: number;
  /** The seed of the candles the server serves, which its trades are priced at (default: `seed`). */
  priceSeed?: string;
  /** Its opening, Unix ms (default: 2 to 8 days after `from`, in the daytime). */
  openedAt?: number;
}

/** The partitions of a unified account's streams (the classic streams' have no records). */
const PARTITIONS: Record<PagedStream, readonly string[]> = {
  ...CLASSIC_PARTITIONS,
  uta_tax_records: UTA_TAX_PARTITIONS.map((p) => p.name),
  uta_financial_records: UTA_FINANCIAL_PARTITIONS.map((p) => p.name),
};

/**
 * A unified trading account (docs/simulator.md, "A unified account"; docs/unified-accounts.md), a pure function of the
 * options: opened a few days into its year with every balance zero, funded by deposits into its funding account, and
 * trading spot and USDT-margined futures in its unified account. Its records are those of the v3 endpoints only; the
 * simulator refuses its key on the classic ones (40085), as the platform does.
 *
 * @example
 * const data = generateUnifiedDataset({ seed: 'retail', from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) });
 */
export function generateUnifiedDataset(options: UnifiedOptions): Dataset {
  const rng = createRng(`ledgerpipe-sim-uta:${options.seed}`);
  const openedAt = options.openedAt ?? Math.floor(options.from / DAY_MS) * DAY_MS + rng.int(2, 8) * DAY_MS + rng.int(8, 18) * 3_600_000 + rng.int(0, 3_599_999);
  const priceAt = pricer(options.priceSeed ?? options.seed);
  const book = new RetailBook(PARTITIONS);
  runUnifiedStory({ book, rng: rng.fork('story'), priceAt }, { openedAt, to: options.to });
  const streams = book.streams(rng.fork('ids'));
  const account = settleAccount(streams);
  return {
    from: options.from,
    to: options.to,
    accountMode: 'uta',
    openedAt,
    streams,
    balances: usdtValuation(balancesAt(account, Number.POSITIVE_INFINITY), priceAt, options.to),
    account,
    dropped: [],
  };
}
