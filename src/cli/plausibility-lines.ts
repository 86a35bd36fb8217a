import type { Implausible } from '../reads/plausibility.js';

// The plausibility findings in words (docs/review.md), for the summary and the demo: no DuckDB here, so that the
// CLI's --help and --version load none.

/** A finding in words, as the summary and the demo say it. */
export function describeImplausible(i: Implausible): string {
  const what = {
    fee_above_1pct: 'a fee above 1% of its movement',
    income_above_holdings: 'interest above the holdings that earned it',
    refund_above_fees: 'a fee refund above the fees paid',
  }[i.finding];
  return `${what}: ${i.amount} ${i.asset} (${i.valueUsdt ?? '?'} USDT) beside ${i.comparedWith ?? '?'} (${i.comparedAs}), ${i.source} ${i.sourceId} at ${new Date(i.ts).toISOString()}`;
}

/** The movements far outside the account's scale (docs/review.md): a count, and the first few, each with its record. */
export function plausibilityLines(list: readonly Implausible[], shown = 5): string[] {
  if (list.length === 0) return [];
  return [
    '',
    `to review: ${list.length} movement${list.length === 1 ? '' : 's'} far outside the account's scale (SELECT * FROM plausibility; docs/review.md):`,
    ...list.slice(0, shown).map((i) => `  ${describeImplausible(i)}`),
    ...(list.length > shown ? [`  and ${list.length - shown} more`] : []),
  ];
}
