import { formatInstant } from '../time/instant.js';
import { completenessHeadline, count } from '../report/completeness-words.js';
import type { Completeness, Holding } from '../warehouse/completeness.js';

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
  const known = holdings === undefined ? undefined : { rows: holdings.length, notKnown: holdings.filter((h) => h.quantity === null).length };
  const [headline, ...more] = completenessHeadline(c, known);
  const lines = ['completeness', `  ${lowerFirst(headline as string)}`, ...more.map((l) => `  ${l}`)];
  if (c.counts.breaks > 0 || c.unexplained.length > 0) {
    for (const b of c.breaks.slice(0, SHOWN)) {
      lines.push(
        `  break: ${b.account} ${b.stream}${b.partition === '' ? '' : ` ${b.partition}`} ${b.asset} at ${formatInstant(b.ts)}, record ${b.sourceId}: expected ${b.expected}, reported ${b.reported}, difference ${b.difference} (a record before it is missing or misread; a missing one's movement is the difference)`,
      );
    }
    if (c.counts.breaks > SHOWN) lines.push(`  and ${c.counts.breaks - SHOWN} more breaks`);
    for (const u of c.unexplained.slice(0, SHOWN)) {
      lines.push(
        `  unexplained: ${u.account} ${u.accountType} ${u.asset} from ${formatInstant(u.periodStart)} to ${formatInstant(u.periodEnd)}: the snapshots changed by ${u.snapshotChange}, the ledger by ${u.ledgerChange}, ${u.unexplained} unexplained`,
      );
    }
    if (c.unexplained.length > SHOWN) lines.push(`  and ${c.unexplained.length - SHOWN} more unexplained differences`);
    lines.push('  look at: SELECT * FROM balance_breaks; SELECT * FROM reconciliation WHERE unexplained <> 0');
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
