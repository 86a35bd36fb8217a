import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { formatInstant } from '../time/instant.js';
import type { FiatSource } from '../tables/settings.js';
import type { Window } from '../time/window.js';
import { packageVersion } from '../util/package-root.js';
import type { Completeness } from '../reads/completeness.js';

/** What a pipeline knows of the files it exports, for their manifest. */
export interface ManifestFacts {
  timeZone: string;
  fiat: string | null;
  /** Where the fiat's values come from (docs/values.md, "A fiat"): `pair`, `ecb` or `file`; null without a fiat. */
  fiatSource?: FiatSource | null;
  accounts: readonly string[];
  streams: readonly string[];
  /** Per account and stream checked by the gap rule: its covered spans and its gaps within the range. */
  coverage: readonly { account: string; stream: string; covered: readonly Window[]; gaps: readonly Window[] }[];
  catalogVersion: string | null;
  /**
   * Per account and stream, the earliest instant the platform answered where it did not reach the history's start
   * (docs/history.md).
   */
  earliestReachable?: readonly { account: string; stream: string; at: number }[];
  /** The range ends after the present: the period to date, its records read up to this instant (Unix ms). */
  toDate?: { readUpTo: number };
  /** What proves the accounts' records complete or shows where they are not (docs/completeness.md). */
  completeness?: Completeness;
}

/** The completeness block of manifest.json: the counts, and each finding and unpaired transfer. */
function completenessOf(c: Completeness): Record<string, unknown> {
  return {
    findings: c.counts.breaks + c.counts.signMismatches + c.unexplained.length,
    counts: {
      balance_breaks: c.counts.breaks,
      sign_mismatches: c.counts.signMismatches,
      unexplained: c.unexplained.length,
      unpaired_transfers: c.counts.unpaired,
    },
    running_balance_steps: { checked: c.steps.checked, not_checked: c.steps.unchecked },
    snapshots: { whole: c.snapshots.taken, pairs_compared: c.snapshots.pairs },
    balance_breaks: c.breaks.map((b) => ({
      account: b.account,
      stream: b.stream,
      partition: b.partition,
      asset: b.asset,
      ts: formatInstant(b.ts),
      source_id: b.sourceId,
      expected: b.expected,
      reported: b.reported,
      difference: b.difference,
    })),
    sign_mismatches: c.signMismatches.map((m) => ({
      account: m.account,
      stream: m.stream,
      partition: m.partition,
      asset: m.asset,
      ts: formatInstant(m.ts),
      source_id: m.sourceId,
      field: m.field,
      type: m.type,
      amount: m.amount,
      booked: m.booked,
      step: m.step,
    })),
    unexplained: c.unexplained.map((u) => ({
      account: u.account,
      account_type: u.accountType,
      asset: u.asset,
      period_start: formatInstant(u.periodStart),
      period_end: formatInstant(u.periodEnd),
      snapshot_change: u.snapshotChange,
      ledger_change: u.ledgerChange,
      unexplained: u.unexplained,
    })),
    unpaired_transfers: c.unpaired.map((t) => ({
      account: t.account,
      stream: t.stream,
      account_type: t.accountType,
      asset: t.asset,
      ts: formatInstant(t.ts),
      source_id: t.sourceId,
      amount: t.amount,
      possible_reason: t.possibleReason,
    })),
    unavailable: c.unavailable.map((u) => ({ account: u.account, account_type: u.accountType, reason: u.reason })),
  };
}

export const MANIFEST = 'manifest.json';

export const spans = (windows: readonly Window[]) =>
  windows.map((w) => ({ from: formatInstant(w.start), to: formatInstant(w.end) }));

export async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes `manifest.json` (to `path`, a temporary name of the set): which range, time zone, fiat (and where its
 * values come from: `fiat_source`), accounts and streams the files are of, the coverage of each stream with its
 * gaps (written with --allow-gaps), each file's rows and SHA-256, and the versions of ledgerpipe and of the type
 * catalog. Keys in a fixed order: the same export twice gives the same manifest but for `created_at`.
 */
export async function writeManifest(
  path: string,
  content: {
    range: Window;
    facts: ManifestFacts;
    files: readonly { name: string; path: string; rows: number }[];
    now: number;
  },
): Promise<void> {
  const { range, facts } = content;
  const files = [];
  for (const f of content.files) files.push({ name: f.name, rows: f.rows, sha256: await sha256(f.path) });
  const manifest = {
    created_at: formatInstant(content.now),
    ledgerpipe_version: packageVersion(),
    catalog_version: facts.catalogVersion,
    range: {
      from: formatInstant(range.start),
      to: formatInstant(range.end),
      time_zone: facts.timeZone,
      ...(facts.toDate === undefined ? {} : { to_date: true, read_up_to: formatInstant(facts.toDate.readUpTo) }),
    },
    fiat: facts.fiat,
    fiat_source: facts.fiat === null ? null : (facts.fiatSource ?? null),
    accounts: facts.accounts,
    streams: facts.streams,
    coverage: facts.coverage.map((c) => {
      const reach = facts.earliestReachable?.find((e) => e.account === c.account && e.stream === c.stream);
      return {
        account: c.account,
        stream: c.stream,
        covered: spans(c.covered),
        gaps: spans(c.gaps),
        earliest_reachable: reach === undefined ? null : formatInstant(reach.at),
      };
    }),
    ...(facts.completeness === undefined ? {} : { completeness: completenessOf(facts.completeness) }),
    files,
  };
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
}
