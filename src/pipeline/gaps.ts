import { STREAMS } from '../streams/index.js';
import { formatInstant } from '../time/instant.js';
import { mergeWindows, uncovered, type Window } from '../time/window.js';
import { readCoverage } from '../warehouse/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The parts of a range one account's stream has not read (its partitions' gaps, merged). */
export interface Gap {
  account: string;
  stream: string;
  windows: Window[];
}

/**
 * What the warehouse lacks of `range` for files to be complete (README, "The gap rule"): per account and paged
 * stream, the parts of the range no finished window covers. The streams checked are `streams`, else every
 * paged stream the warehouse holds for the account; snapshots (account_balances) are not subject to it. Each
 * account is checked up to its `end` (where this run's extraction stopped: the platform's present), else up to
 * `now`: what has not happened yet is no gap.
 */
export async function findGaps(
  warehouse: Warehouse,
  options: { range: Window; now: number; accounts?: readonly { name: string; end: number }[]; streams?: readonly string[] },
): Promise<Gap[]> {
  return warehouse.exclusive(async (c) => {
    const accounts =
      options.accounts ??
      (await c.runAndReadAll('SELECT DISTINCT account FROM coverage ORDER BY 1')).getRows().map((r) => ({ name: String(r[0]), end: options.now }));
    const gaps: Gap[] = [];
    for (const account of accounts) {
      const end = Math.min(options.range.end, account.end);
      if (end <= options.range.start) continue;
      const held = options.streams === undefined ? new Set((await c.runAndReadAll('SELECT DISTINCT stream FROM coverage WHERE account = $a', { a: account.name })).getRows().map((r) => String(r[0]))) : undefined;
      for (const stream of STREAMS) {
        if (stream.kind !== 'paged' || !(options.streams?.includes(stream.name) ?? held?.has(stream.name) === true)) continue;
        const coverage = await readCoverage(c, account.name, stream.name);
        const missing = stream.partitions.flatMap((p) =>
          uncovered(options.range.start, end, coverage.filter((r) => r.partition === p.name && r.status === 'done').map((r) => r.window)),
        );
        if (missing.length > 0) gaps.push({ account: account.name, stream: stream.name, windows: mergeWindows(missing) });
      }
    }
    return gaps;
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
    const spans = g.windows.map((w) => `${formatInstant(w.start)} .. ${formatInstant(w.end)}`).join(', ');
    const profile = options.profiles ? ` --profile ${g.account}` : '';
    return `${g.account} ${g.stream} ${spans} (fill with: ledgerpipe extract --from ${from} --to ${to} --streams ${g.stream}${profile})`;
  });
  return `the warehouse does not cover the whole range: ${parts.join('; ')}`;
}
