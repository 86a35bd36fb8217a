import { UTA_FINANCIAL_PARTITIONS } from '../../../streams/uta-financial-records.js';
import { UTA_TAX_PARTITIONS } from '../../../streams/uta-tax-records.js';
import { balancesAt, keyOf, settleAccount, usdtValuation } from '../accounts.js';
import { pricer } from '../markets.js';
import { DAY_MS, type Dataset, type PagedStream, type Payload } from '../types.js';
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

/**
 * The partitions of a unified account's streams (the classic streams' have no records), its copy project's among them.
 */
const partitions = (project: string): Record<PagedStream, readonly string[]> => ({
  ...CLASSIC_PARTITIONS,
  uta_tax_records: UTA_TAX_PARTITIONS.map((p) => p.name),
  uta_financial_records: UTA_FINANCIAL_PARTITIONS.map((p) => p.name),
  copy_transfers: [project],
  copy_profit_shares: [project],
});

/** The copy-trading project the simulated unified account follows (its config names it: docs/simulator.md). */
export function copyProjectOf(seed: string): string {
  return `11${String(createRng(`ledgerpipe-sim-copy:${seed}`).int(10_000_000, 99_999_999))}`;
}

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
  const openedAt =
    options.openedAt ??
    Math.floor(options.from / DAY_MS) * DAY_MS +
      rng.int(2, 8) * DAY_MS +
      rng.int(8, 18) * 3_600_000 +
      rng.int(0, 3_599_999);
  const priceAt = pricer(options.priceSeed ?? options.seed);
  const copy = { project: copyProjectOf(options.seed), results: [] as { ts: number; units: bigint }[] };
  const book = new RetailBook(partitions(copy.project));
  const openLoans: Payload[] = [];
  runUnifiedStory({ book, rng: rng.fork('story'), priceAt }, { openedAt, to: options.to }, copy, openLoans);
  const streams = book.streams(rng.fork('ids'));
  const account = settleAccount(streams);
  // The copy account's trading shows in no record: its results are counted in the truth beside the records'.
  for (const r of copy.results)
    account.movements.push({
      accountType: 'copy',
      asset: 'USDT',
      symbol: copy.project,
      units: r.units,
      ts: r.ts,
      stream: 'copy_profit_shares',
      id: `trading:${r.ts}`,
    });
  account.movements.sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const key = keyOf({ accountType: 'copy', asset: 'USDT', symbol: copy.project });
  if (!account.opening.has(key)) account.opening.set(key, 0n);
  return {
    from: options.from,
    to: options.to,
    accountMode: 'uta',
    openedAt,
    streams,
    balances: usdtValuation(balancesAt(account, Number.POSITIVE_INFINITY), priceAt, options.to),
    account,
    openLoans,
    dropped: [],
  };
}
