import { formatInstant } from '../time/instant.js';
import type { BotResult, Completeness, Holding, OpenLoan } from '../warehouse/completeness.js';

/** The most of each kind a summary prints; the views hold them all. */
const SHOWN = 10;

/** A count and its noun, plural when not one. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The completeness block of the run summary and of `status` (docs/completeness.md, "Completeness"): every break and unexplained
 * difference with what to look at, or one line saying every chain and snapshot agrees; then what is listed but not
 * a finding (unpaired transfers, account types not read).
 */
export function completenessLines(c: Completeness): string[] {
  const lines = ['completeness'];
  const { checked, unchecked } = c.steps;
  const steps = `${count(checked, 'running-balance step')} checked${unchecked > 0 ? `, ${unchecked} not (the record has a fee, whose place in the balance no published example settles, or a span between the two records was not read)` : ''}`;
  if (c.counts.breaks === 0 && c.counts.signMismatches === 0 && c.unexplained.length === 0) {
    lines.push(`  every running balance and every snapshot agrees with the records: ${steps}`);
  } else {
    const n = c.counts.signMismatches;
    const mismatches = n > 0 ? `, ${n} sign mismatch${n === 1 ? '' : 'es'}` : '';
    lines.push(`  ${count(c.counts.breaks, 'running-balance break')}${mismatches}, ${count(c.unexplained.length, 'unexplained difference')}; ${steps}`);
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
        `  unexplained: ${u.account} ${u.accountType} ${u.asset} from ${formatInstant(u.from)} to ${formatInstant(u.to)}: the snapshots changed by ${u.snapshotChange}, the ledger by ${u.ledgerChange}, ${u.unexplained} unexplained`,
      );
    }
    if (c.unexplained.length > SHOWN) lines.push(`  and ${c.unexplained.length - SHOWN} more unexplained differences`);
    lines.push(`  look at: SELECT * FROM balance_breaks;${c.counts.signMismatches > 0 ? ' SELECT * FROM sign_mismatches;' : ''} SELECT * FROM reconciliation WHERE unexplained <> 0`);
  }
  if (c.counts.unpaired > 0) {
    lines.push(`  ${count(c.counts.unpaired, 'internal transfer')} without a counterpart (SELECT * FROM unpaired_transfers):`);
    for (const t of c.unpaired.slice(0, SHOWN)) lines.push(`    ${t.account} ${t.accountType} ${t.asset} ${t.amount} at ${formatInstant(t.ts)} (${t.stream} ${t.sourceId}): ${t.possibleReason}`);
    if (c.counts.unpaired > SHOWN) lines.push(`    and ${c.counts.unpaired - SHOWN} more`);
  } else {
    lines.push('  every internal transfer has its counterpart');
  }
  for (const u of c.unavailable) lines.push(`  ${u.account} ${u.accountType}: balances not readable with this key (${u.reason}); its holdings are not known`);
  for (const w of c.withoutSnapshot) lines.push(`  ${w.account} ${w.accountType}: holds ${w.usdt} USDT of value with no per-asset balance read`);
  return lines;
}

/** The holdings at the range's ends, one line per account, instant and account type. */
export function holdingsLines(holdings: readonly Holding[]): string[] {
  if (holdings.length === 0) return [];
  const lines = ['holdings (SELECT * FROM holdings)'];
  const groups = new Map<string, Holding[]>();
  for (const h of holdings) {
    const key = `${h.account}|${h.at}|${h.accountType}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  for (const [key, list] of groups) {
    const [account, at, accountType] = key.split('|') as [string, string, string];
    const known = list.filter((h) => h.quantity !== null);
    const assets = known.map((h) => `${h.asset} ${h.quantity}`).join(', ');
    const unknown = list.filter((h) => h.quantity === null).map((h) => h.asset);
    const sources = [...new Set(known.map((h) => h.source))].join(', ');
    lines.push(
      `  ${account} ${formatInstant(Number(at))} ${accountType}: ${assets === '' ? 'none known' : `${assets} (${sources})`}${unknown.length > 0 ? `; not known: ${unknown.join(', ')}` : ''}`,
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
    lines.push('open loans (SELECT * FROM loans): what is owed now; the ledger books a loan only where a record shows its borrow or repayment');
    for (const l of residuals.loans) {
      lines.push(`  ${l.account} ${formatInstant(l.asOf)} loan ${l.orderId}: ${l.amount ?? '?'} ${l.coin} owed${l.interest === null ? '' : ` (interest ${l.interest})`}, ${l.collateralAmount ?? '?'} ${l.collateralCoin ?? '?'} pledged`);
    }
  }
  if (residuals.bots.length > 0) {
    lines.push("bots' results (SELECT * FROM bot_results): residuals between snapshots, never booked as income");
    for (const b of residuals.bots) {
      lines.push(`  ${b.account} ${b.asset} ${formatInstant(b.from)} to ${formatInstant(b.to)}: bot assets changed by ${b.change ?? '?'}, net transfers in ${b.transfers ?? '?'}, residual ${b.residual ?? 'not known'}`);
    }
  }
  return lines;
}
