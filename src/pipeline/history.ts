import type { DuckDBConnection } from '@duckdb/node-api';
import { param, readModel, withParams } from '../warehouse/sql-graph.js';
import { openingLotLine } from '../gains/opening-lots.js';
import type { Settings } from '../tables/settings.js';
import { STREAMS } from '../streams/index.js';
import { readFor, type PagedStreamDef, type StreamDef } from '../streams/stream.js';
import { readAccountMode } from '../reads/account-modes.js';
import { formatInstant } from '../time/instant.js';
import { formatWindow, mergeWindows, uncovered, type Window } from '../time/window.js';
import { readCoverage, readEarliestReachable } from '../reads/coverage.js';
import { readOpening } from '../warehouse/settings.js';
import { hasTables } from '../duckdb/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The streams whose records carry acquisitions and disposals: read back to the account's opening (docs/history.md). */
export const LOT_STREAMS: readonly PagedStreamDef[] = (STREAMS as readonly StreamDef[]).filter(
  (s): s is PagedStreamDef => s.kind === 'paged' && s.carriesLots === true,
);

/** A lot the account held where its known history starts, whose cost no record gives. */
export interface NeededLot {
  account: string;
  asset: string;
  /** What the running balances say was held (summed over the account's chains). */
  quantity: string;
  /**
   * Where the known history of the account starts: the earliest instant the platform answered, else its first record.
   */
  at: number;
  /**
   * The fees of first records that may or may not be in their balance (docs/completeness.md): the quantity may be off
   * by them.
   */
  feeDoubt: string | null;
}

/** What the cost basis of a range lacks of the account's history (docs/history.md). */
export interface HistoryFindings {
  /** How far back each account's history was to be read: its opening, --history-from, or unknown. */
  from: { account: string; at: number | undefined }[];
  /** Spans of the streams that carry lots, between the history's start and the range's, that were not read. */
  missing: { account: string; stream: string; windows: Window[] }[];
  /** Per account and stream, the earliest instant the platform answered, where it did not reach back far enough. */
  earliestReachable: { account: string; stream: string; at: number }[];
  /** Disposals of the range without an acquisition to match, per asset. */
  unmatched: { asset: string; slices: number; quantity: string }[];
  /** The lots the account held where its known history starts, to be given with --opening-lots. */
  needed: NeededLot[];
}

/**
 * What the cost basis of `range` lacks (docs/history.md): the spans of the streams that carry lots not read
 * between each account's history start and the range, where the platform stopped answering, the range's disposals
 * with no acquisition, and the holdings where the known history starts (opening_balances) whose lots are needed.
 * Read after the gains are computed.
 */
export async function findHistoryGaps(
  warehouse: Warehouse,
  options: {
    accounts: readonly string[];
    range: Window;
    settings: Settings;
    unit: string;
    streams?: readonly string[];
    readUpTo?: ReadonlyMap<string, number>;
  },
): Promise<HistoryFindings> {
  const findings: HistoryFindings = { from: [], missing: [], earliestReachable: [], unmatched: [], needed: [] };
  await warehouse.exclusive(async (c) => {
    for (const account of options.accounts) {
      const at = await historyFrom(c, account, options.settings);
      findings.from.push({ account, at });
      for (const [stream, reach] of await readEarliestReachable(c, account))
        findings.earliestReachable.push({ account, stream, at: reach });
      // What has not happened on the platform's clock is no missing history (the gap rule's own limit).
      const end = Math.min(options.range.start, options.readUpTo?.get(account) ?? Number.POSITIVE_INFINITY);
      if (at === undefined || at >= end) continue;
      const mode = await readAccountMode(c, account);
      for (const stream of LOT_STREAMS) {
        if (options.streams !== undefined && !options.streams.includes(stream.name)) continue;
        // The streams of the account's kind only (docs/unified-accounts.md).
        if (!readFor(stream, mode)) continue;
        const coverage = await readCoverage(c, account, stream.name);
        const read = (partition: string) =>
          coverage.filter((r) => r.partition === partition && r.status !== 'open').map((r) => r.window);
        const windows = mergeWindows(stream.partitions.flatMap((p) => uncovered(at, end, read(p.name))));
        if (windows.length > 0) findings.missing.push({ account, stream: stream.name, windows });
      }
    }
    findings.unmatched = await unmatchedDisposals(c, options.range, options.accounts);
    findings.needed = await neededLots(c, options.accounts, findings.earliestReachable, options.unit);
  });
  return findings;
}

/**
 * Where an account's history starts: --history-from, else its opening (undefined when not known); none for
 * --no-history.
 */
async function historyFrom(c: DuckDBConnection, account: string, settings: Settings): Promise<number | undefined> {
  if (settings.historyFrom === 'none') return undefined;
  if (settings.historyFrom !== 'opening') return Date.parse(settings.historyFrom);
  return readOpening(c, account);
}

/**
 * The range's disposal slices of `accounts` that no acquisition matched, per asset (withdrawals, which are no
 * disposals, aside). A slice keeps its disposal's account, pooled or not: another account's are not this run's.
 */
async function unmatchedDisposals(
  c: DuckDBConnection,
  range: Window,
  accounts: readonly string[],
): Promise<HistoryFindings['unmatched']> {
  if (!(await hasTables(c, ['disposals']))) return [];
  const params = {
    lp_from: param.instant(range.start),
    lp_to: param.instant(range.end),
    lp_accounts: param.texts(accounts),
  };
  const found = await withParams(c, params, () => readModel(c, 'reads/unmatched_disposals.sql'));
  return found.map((r) => ({
    asset: String(r['asset']),
    slices: Number(r['slices']),
    quantity: plain(String(r['quantity'])),
  }));
}

/**
 * The lots each account held where its known history starts (opening_balances, summed per asset over its chains):
 * at the earliest instant the platform answered when it did not reach the opening, else at the chain's first record.
 */
async function neededLots(
  c: DuckDBConnection,
  accounts: readonly string[],
  reach: HistoryFindings['earliestReachable'],
  unit: string,
): Promise<NeededLot[]> {
  if (!(await hasTables(c, ['opening_balances']))) return [];
  return (
    (await readModel(c, 'reads/opening_lots_needed.sql'))
      // The unit of the gains (the fiat, else USDT) has no lots: it is what the others are measured in.
      .filter((r) => accounts.includes(String(r['account'])) && String(r['asset']) !== unit)
      .map((r) => {
        const account = String(r['account']);
        const reachable = reach.filter((e) => e.account === account).map((e) => e.at);
        const fees = plain(String(r['fees']));
        return {
          account,
          asset: String(r['asset']),
          quantity: plain(String(r['quantity'])),
          at: reachable.length > 0 ? Math.max(...reachable) : Number(r['first_at']),
          feeDoubt: fees === '0' ? null : fees,
        };
      })
  );
}

/** A DECIMAL's text without trailing zeros: 0.5 for 0.500000000000000000. */
function plain(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * Why the range's gains are incomplete, in one line (exit 4), or undefined when nothing is lacking: history not
 * read, or disposals with no acquisition. With --no-history none makes the run incomplete: the summary says it.
 */
export function historyIncomplete(
  findings: HistoryFindings,
  context: { label: string; settings: Settings },
): string | undefined {
  if (context.settings.historyFrom === 'none') return undefined;
  const parts: string[] = [];
  if (findings.missing.length > 0) {
    const spans = findings.missing.map((m) => `${m.account} ${m.stream} ${m.windows.map(formatWindow).join(', ')}`);
    parts.push(
      `the cost basis needs the history before the range, and it is not in the warehouse (${spans.join('; ')}): run ledgerpipe run year-end over the range to read it, or give --no-history`,
    );
  }
  if (findings.unmatched.length > 0) {
    const assets = findings.unmatched.map((u) => `${u.asset} ${u.quantity}`).join(', ');
    const slices = findings.unmatched.reduce((n, u) => n + u.slices, 0);
    parts.push(
      findings.needed.length > 0 && findings.unmatched.some((u) => findings.needed.some((n) => n.asset === u.asset))
        ? `${slices} disposal slice${slices === 1 ? '' : 's'} of ${context.label} have no acquisition (${assets}): the lots held before the history ledgerpipe could read are not known; fill in the cost of each --opening-lots line the summary lists and give the file with --opening-lots (docs/history.md)`
        : `${slices} disposal slice${slices === 1 ? '' : 's'} of ${context.label} have no acquisition (${assets}), and no record read explains it: a record the platform did not return, or profits received in a stream not read before the range; give their lots with --opening-lots FILE (docs/history.md)`,
    );
  }
  return parts.length === 0 ? undefined : parts.join('; ');
}

/**
 * What the summary says of the history: where it was read from, where the platform stopped, and the lots to fill in.
 */
export function historyLines(findings: HistoryFindings, settings: Settings, unit: string): string[] {
  const lines: string[] = [];
  if (settings.historyFrom === 'none') {
    const slices = findings.unmatched.reduce((n, u) => n + u.slices, 0);
    lines.push(
      `history: not read (--no-history); the gains are incomplete${slices > 0 ? `: ${slices} disposal slices have no acquisition (${findings.unmatched.map((u) => `${u.asset} ${u.quantity}`).join(', ')})` : ''}`,
    );
    return lines;
  }
  for (const f of findings.from) {
    const reach = findings.earliestReachable.filter((e) => e.account === f.account);
    const from =
      f.at === undefined
        ? "its opening is not known (the platform did not say), so it is read from the range's start"
        : `read from ${formatInstant(f.at)} (${settings.historyFrom === 'opening' ? 'its opening' : '--history-from'})`;
    lines.push(
      `history of ${f.account}: ${from}${reach.length === 0 ? '' : `; the platform answers nothing before ${reach.map((r) => `${formatInstant(r.at)} (${r.stream})`).join(', ')}`}`,
    );
  }
  // Holdings whose lots no record explains matter where a disposal found no lot, or where the platform's reach ends.
  if (findings.needed.length > 0 && (findings.unmatched.length > 0 || findings.earliestReachable.length > 0)) {
    lines.push(
      `opening lots needed: fill in the cost of each line (in ${unit}) and give the file with --opening-lots FILE:`,
      '  account,asset,quantity,cost,currency,acquired_at',
    );
    for (const lot of findings.needed) {
      lines.push(`  ${openingLotLine({ ...lot, currency: unit })}`);
      // A line --opening-lots skips: no published example settles whether a balance holds its record's fee.
      if (lot.feeDoubt !== null)
        lines.push(
          `  # ${lot.asset}: its first record had fees of ${lot.feeDoubt}; if the balance leaves them out, the quantity differs by them`,
        );
    }
  }
  return lines;
}
