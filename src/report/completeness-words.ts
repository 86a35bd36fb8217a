import type { Completeness } from '../reads/completeness.js';

// The completeness headline in words (docs/completeness.md, "Completeness"), the same for the run summary, status
// and the report: what was compared, and what could not be. No DuckDB here: the CLI's --help loads this.

/** A count and its noun, plural when not one. */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The holdings at the range's ends: how many rows, and how many of them not known. */
export interface HoldingsKnown {
  rows: number;
  notKnown: number;
}

/**
 * The headline: whether the records agree with all that was compared, then what was compared (running-balance
 * steps, pairs of snapshots) and what could not be (a single snapshot, holdings not known), each in one sentence.
 *
 * @example
 * completenessHeadline(c, { rows: 62, notKnown: 38 })
 * // => ['The records agree with every running balance: 1442 running-balance steps checked, ...; only one balance snapshot was read, ...', '38 of the 62 holdings ...']
 */
export function completenessHeadline(c: Completeness, holdings?: HoldingsKnown): string[] {
  const { checked, unchecked } = c.steps;
  const steps = `${count(checked, 'running-balance step')} checked${unchecked > 0 ? `, ${unchecked} not (the record has a fee, whose place in the balance no published example settles, or a span between the two records was not read)` : ''}`;
  const { taken, pairs } = c.snapshots;
  const snapshots =
    pairs > 0
      ? `${count(pairs, 'pair')} of consecutive balance snapshots set against the ledger`
      : taken === 0
        ? 'no per-asset balance snapshot was read, so none was set against the ledger'
        : taken === 1
          ? 'only one balance snapshot was read, so none was set against the ledger: a later run takes a second'
          : 'no account type has two balance snapshots yet, so none was set against the ledger: a later run takes a second';
  const mismatched = c.counts.signMismatches;
  const agrees = c.counts.breaks === 0 && mismatched === 0 && c.unexplained.length === 0;
  const mismatches = mismatched > 0 ? `, ${mismatched} sign mismatch${mismatched === 1 ? '' : 'es'}` : '';
  const first = agrees
    ? `${pairs > 0 ? 'The records agree with every running balance and every pair of snapshots' : 'The records agree with every running balance'}: ${steps}; ${snapshots}`
    : `${count(c.counts.breaks, 'running-balance break')}${mismatches}, ${count(c.unexplained.length, 'unexplained difference')}: ${steps}; ${snapshots}`;
  const lines = [first];
  if (holdings !== undefined && holdings.notKnown > 0) {
    lines.push(
      `${holdings.notKnown} of the ${holdings.rows} holdings at the range's ends are not known: no snapshot at that instant, nor a running balance to carry one there (listed under holdings)`,
    );
  }
  return lines;
}
