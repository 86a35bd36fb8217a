import type { Window } from '../time/window.js';
import {
  completenessOf,
  ensureHoldingsAt,
  findingsOf,
  mergeCompleteness,
  readCompletenessByAccount,
  readHoldings,
  readResiduals,
  type BotResult,
  type Completeness,
  type Holding,
  type OpenLoan,
} from '../reads/completeness.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** What proves a run's accounts complete or shows where they are not (docs/completeness.md), and their holdings. */
export interface RunCompleteness {
  /** Of the run's accounts: those it extracted, else every one the warehouse holds. */
  completeness: Completeness;
  /** The same, of every account the warehouse holds, by account: what each account's own files and report show. */
  byAccount: ReadonlyMap<string, Completeness>;
  /** The run's accounts' holdings at the range's ends; none without a range. */
  holdings: Holding[];
  /** Beside the holdings: the open loans of the latest snapshot and the bots' residuals of the range (never booked). */
  residuals: { loans: OpenLoan[]; bots: BotResult[] } | undefined;
}

/**
 * The completeness of `ours` (the accounts the run extracted; undefined for every account held), and their holdings at
 * the range's ends. Undefined when the warehouse has no completeness views yet (never transformed).
 *
 * @example
 * const completeness = await readRunCompleteness(warehouse, ['main'], period.window);
 */
export async function readRunCompleteness(
  warehouse: Warehouse,
  ours: readonly string[] | undefined,
  range: Window | undefined,
): Promise<RunCompleteness | undefined> {
  const kept = ours === undefined ? undefined : new Set(ours);
  const keep = (account: string) => kept === undefined || kept.has(account);
  const byAccount = await readCompletenessByAccount(warehouse);
  if (byAccount === undefined) return undefined;
  const completeness =
    kept === undefined
      ? completenessOf(byAccount)
      : mergeCompleteness([...kept].map((a) => completenessOf(byAccount, a)));
  if (range === undefined) return { completeness, byAccount, holdings: [], residuals: undefined };
  await ensureHoldingsAt(warehouse, [range.start, range.end]);
  const holdings = (await readHoldings(warehouse, [range.start, range.end])).filter((h) => keep(h.account));
  const residuals = await readResiduals(warehouse, range);
  return {
    completeness,
    byAccount,
    holdings,
    residuals: {
      loans: residuals.loans.filter((l) => keep(l.account)),
      bots: residuals.bots.filter((b) => keep(b.account)),
    },
  };
}

/**
 * The findings that make a finished run incomplete: breaks, sign mismatches and unexplained differences
 * (docs/completeness.md, "Completeness"); undefined when there are none.
 *
 * @example
 * const findings = completenessFindings(completeness?.completeness);
 */
export function completenessFindings(c: Completeness | undefined): string | undefined {
  if (c === undefined || findingsOf(c) === 0) return undefined;
  const parts = [
    ...(c.counts.breaks > 0 ? [`${c.counts.breaks} running-balance break${c.counts.breaks === 1 ? '' : 's'}`] : []),
    ...(c.counts.signMismatches > 0
      ? [
          `${c.counts.signMismatches} type${c.counts.signMismatches === 1 ? '' : 's'} booked with the sign opposite to the balance's step`,
        ]
      : []),
    ...(c.unexplained.length > 0
      ? [`${c.unexplained.length} unexplained difference${c.unexplained.length === 1 ? '' : 's'} between snapshots`]
      : []),
  ];
  const where = ['balance_breaks', ...(c.counts.signMismatches > 0 ? ['sign_mismatches'] : []), 'reconciliation'];
  return `${parts.join(' and ')}: records missing or misread; see ${where.slice(0, -1).join(', ')} and ${where.at(-1) as string} (docs/completeness.md, "Completeness")`;
}
