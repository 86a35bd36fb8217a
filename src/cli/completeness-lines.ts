import { formatInstant } from '../time/instant.js';
import { completenessHeadline, count } from '../report/completeness-words.js';
import type { BotResult, Completeness, Holding, OpenLoan } from '../reads/completeness.js';

/** The most of each kind a summary prints; the views hold them all. */
const SHOWN = 10;

/** A sentence's first letter in lower case, as the summary's lines are. */
const lowerFirst = (t: string): string => (/^[A-Z][a-z]/.test(t) ? t[0]?.toLowerCase() + t.slice(1) : t);

/**
 * The completeness block of the run summary and of `status` (docs/completeness.md, "Completeness"): the headline
 * (what was compared and what could not be: completenessHeadline), every break and unexplained difference with
 * what to look at, then what is listed but not a finding (unpaired transfers, account types not read).
 */
export function completenessLines(c: Completeness, holdings?: readonly Holding[]): string[] {
  const known =
    holdings === undefined
      ? undefined
      : { rows: holdings.length, notKnown: holdings.filter((h) => h.quantity === null).length };
  const [headline, ...more] = completenessHeadline(c, known);
  const lines = ['completeness', `  ${lowerFirst(headline as string)}`, ...more.map((l) => `  ${l}`)];
  if (c.counts.breaks > 0 || c.counts.signMismatches > 0 || c.unexplained.length > 0) {
    for (const b of c.breaks.slice(0, SHOWN)) {
      lines.push(
        `  break: ${b.account} ${b.stream}${b.partition === '' ? '' : ` ${b.partition}`} ${b.asset} at ${formatInstant(b.ts)}, record ${b.sourceId}: expected ${b.expected}, reported ${b.reported}, difference ${b.difference} (a record before it is missing or misread; a missing one's movement is the difference)`,
      );
    }
    if (c.counts.breaks > SHOWN) lines.push(`  and ${c.counts.breaks - SHOWN} more breaks`);
    for (const m of c.signMismatches.slice(0, SHOWN)) {
      lines.push(
        `  sign mismatch: ${m.account} ${m.stream}${m.partition === '' ? '' : ` ${m.partition}`} ${m.asset} at ${formatInstant(m.ts)}, record ${m.sourceId} (${m.field} "${m.type}", amount ${m.amount}): booked ${m.booked}, the balance moved ${m.step} (the type's label, or its catalog row, reads backwards: review it, or override it with --catalog)`,
      );
    }
    if (c.counts.signMismatches > SHOWN) lines.push(`  and ${c.counts.signMismatches - SHOWN} more sign mismatches`);
    for (const u of c.unexplained.slice(0, SHOWN)) {
      lines.push(
        `  unexplained: ${u.account} ${u.accountType} ${u.asset} from ${formatInstant(u.periodStart)} to ${formatInstant(u.periodEnd)}: the snapshots changed by ${u.snapshotChange}, the ledger by ${u.ledgerChange}, ${u.unexplained} unexplained`,
      );
    }
    if (c.unexplained.length > SHOWN) lines.push(`  and ${c.unexplained.length - SHOWN} more unexplained differences`);
    lines.push(
      `  look at: SELECT * FROM balance_breaks;${c.counts.signMismatches > 0 ? ' SELECT * FROM sign_mismatches;' : ''} SELECT * FROM reconciliation WHERE unexplained <> 0`,
    );
  }
  if (c.counts.unpaired > 0) {
    lines.push(
      `  ${count(c.counts.unpaired, 'internal transfer')} without a counterpart (SELECT * FROM unpaired_transfers):`,
    );
    for (const t of c.unpaired.slice(0, SHOWN))
      lines.push(
        `    ${t.account} ${t.accountType} ${t.asset} ${t.amount} at ${formatInstant(t.ts)} (${t.stream} ${t.sourceId}): ${t.possibleReason}`,
      );
    if (c.counts.unpaired > SHOWN) lines.push(`    and ${c.counts.unpaired - SHOWN} more`);
  } else {
    lines.push('  every internal transfer has its counterpart');
  }
  for (const u of c.unavailable)
    lines.push(
      `  ${u.account} ${u.accountType}: balances not readable with this key (${u.reason}); its holdings are not known`,
    );
  for (const w of c.withoutSnapshot)
    lines.push(`  ${w.account} ${w.accountType}: holds ${w.usdt} USDT of value with no per-asset balance read`);
  return lines;
}

/** The holdings at the range's ends, one line per account, instant and account type. */
export function holdingsLines(holdings: readonly Holding[]): string[] {
  if (holdings.length === 0) return [];
  const lines = ['holdings (SELECT * FROM holdings)'];
  const groups = new Map<string, Holding[]>();
  for (const h of holdings) {
    const key = `${h.account}|${h.asOf}|${h.accountType}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  for (const [key, list] of groups) {
    const [account, asOf, accountType] = key.split('|') as [string, string, string];
    const known = list.filter((h) => h.quantity !== null);
    const assets = known.map((h) => `${h.asset} ${h.quantity}`).join(', ');
    const unknown = list.filter((h) => h.quantity === null).map((h) => h.asset);
    const sources = [...new Set(known.map((h) => h.source))].join(', ');
    lines.push(
      `  ${account} ${formatInstant(Number(asOf))} ${accountType}: ${assets === '' ? 'none known' : `${assets} (${sources})`}${unknown.length > 0 ? `; not known: ${unknown.join(', ')}` : ''}`,
    );
  }
  return lines;
}

/**
 * Beside the holdings: the open loans of the latest snapshot (owed, and what is pledged for each), and the bots'
 * residuals, each labelled: nothing of either is booked (docs/completeness.md, "Open loans"). None: no lines.
 */
export function residualLines(residuals: { loans: readonly OpenLoan[]; bots: readonly BotResult[] }): string[] {
  const lines: string[] = [];
  if (residuals.loans.length > 0) {
    lines.push(
      'open loans (SELECT * FROM loans): what is owed now; the ledger books a loan only where a record shows its borrow or repayment',
    );
    for (const l of residuals.loans) {
      lines.push(
        `  ${l.account} ${formatInstant(l.asOf)} loan ${l.orderId}: ${l.amount ?? '?'} ${l.coin} owed${l.interest === null ? '' : ` (interest ${l.interest})`}, ${l.collateralAmount ?? '?'} ${l.collateralCoin ?? '?'} pledged`,
      );
    }
  }
  if (residuals.bots.length > 0) {
    lines.push("bots' results (SELECT * FROM bot_results): residuals between snapshots, never booked as income");
    for (const b of residuals.bots) {
      lines.push(
        `  ${b.account} ${b.asset} ${formatInstant(b.from)} to ${formatInstant(b.to)}: bot assets changed by ${b.change ?? '?'}, net transfers in ${b.transfers ?? '?'}, residual ${b.residual ?? 'not known'}`,
      );
    }
  }
  return lines;
}
