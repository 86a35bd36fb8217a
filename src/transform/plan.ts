import type { RecordedVersions, ReleaseVersions } from '../warehouse/versions.js';

/**
 * How a transform brings the ledger up to date: made again whole, and why, or from the records loaded since the last.
 */
export type LedgerPlan = { full: true; why: string } | { full: false };

/**
 * The one place a transform decides whether the ledger is made again whole (docs/transform.md):
 * when asked (--full), when records were typed again (a typing of another release, rows that do not match
 * raw_records in number), on the first transform of a warehouse by this release, and when the models' version the
 * warehouse records (the typing, the catalog and every SQL file of the transform) is not this release's.
 * Otherwise only the ledger rows of the records loaded since the last transform are made again.
 *
 * @example
 * planLedger({ models: 'abc' }, { models: 'abc', ... }, { full: false, retyped: [] }) // => { full: false }
 */
export function planLedger(
  recorded: RecordedVersions,
  release: ReleaseVersions,
  options: { full: boolean; retyped: readonly string[] },
): LedgerPlan {
  if (options.full) return { full: true, why: 'asked for (--full)' };
  if (options.retyped.length > 0) return { full: true, why: `typed again: ${options.retyped.join(', ')}` };
  if (recorded.models === undefined)
    return { full: true, why: 'the first transform of this warehouse by this release' };
  if (recorded.models !== release.models) return { full: true, why: 'the SQL, the type catalog or the typing changed' };
  return { full: false };
}
