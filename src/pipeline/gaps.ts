import { STREAMS } from '../streams/index.js';
import { formatInstant } from '../time/instant.js';
import { formatWindow, mergeWindows, uncovered, type Window } from '../time/window.js';
import { readCoverage } from '../warehouse/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The parts of a range one account's stream has not read (its partitions' gaps, merged). */
export interface Gap {
  account: string;
  stream: string;
  windows: Window[];
}

/** How much of a range one account's stream has read: its covered spans and its gaps (partitions merged). */
export interface StreamCoverage {
  account: string;
  stream: string;
  covered: Window[];
  gaps: Window[];
}

/**
 * What the warehouse holds of `range` for files to be complete (README, "The gap rule"): per account and paged
 * stream, the spans finished windows cover and the gaps between them. The streams checked are `streams`, else
 * every paged stream the warehouse holds for the account; snapshots (account_balances) are not subject to it.
 * Each account is checked up to its `end` (where this run's extraction stopped: the platform's present), else
 * up to `now`: what has not happened yet is no gap.
 */
export async function coverageOfRange(
  warehouse: Warehouse,
  options: { range: Window; now: number; accounts?: readonly { name: string; end: number }[]; streams?: readonly string[] },
): Promise<StreamCoverage[]> {
  return warehouse.exclusive(async (c) => {
    const accounts =
      options.accounts ??
      (await c.runAndReadAll('SELECT DISTINCT account FROM coverage ORDER BY 1')).getRows().map((r) => ({ name: String(r[0]), end: options.now }));
    const out: StreamCoverage[] = [];
    for (const account of accounts) {
      const end = Math.max(options.range.start, Math.min(options.range.end, account.end));
      const held = options.streams === undefined ? new Set((await c.runAndReadAll('SELECT DISTINCT stream FROM coverage WHERE account = $a', { a: account.name })).getRows().map((r) => String(r[0]))) : undefined;
      for (const stream of STREAMS) {
        if (stream.kind !== 'paged' || !(options.streams?.includes(stream.name) ?? held?.has(stream.name) === true)) continue;
        const coverage = await readCoverage(c, account.name, stream.name);
        const done = (partition: string) => coverage.filter((r) => r.partition === partition && r.status === 'done').map((r) => r.window);
        const gaps = mergeWindows(stream.partitions.flatMap((p) => uncovered(options.range.start, end, done(p.name))));
        // Covered: what every partition has read, within the range.
        const covered = uncovered(options.range.start, options.range.end, gaps).filter((w) => w.start < end);
        out.push({ account: account.name, stream: stream.name, covered: covered.map((w) => ({ start: w.start, end: Math.min(w.end, end) })), gaps });
      }
    }
    return out;
  });
}

/**
 * The gaps in a line: each account's stream with its missing spans and the command that fills them (with
 * `--profile` when the run has several accounts).
 */
export function describeGaps(gaps: readonly Gap[], options: { profiles: boolean }): string {
  const parts = gaps.map((g) => {
    const from = formatInstant(Math.min(...g.windows.map((w) => w.start)));
    const to = formatInstant(Math.max(...g.windows.map((w) => w.end)));
    const spans = g.windows.map(formatWindow).join(', ');
    const profile = options.profiles ? ` --profile ${g.account}` : '';
    return `${g.account} ${g.stream} ${spans} (fill with: ledgerpipe extract --from ${from} --to ${to} --streams ${g.stream}${profile})`;
  });
  return `the warehouse does not cover the whole range: ${parts.join('; ')}`;
}
