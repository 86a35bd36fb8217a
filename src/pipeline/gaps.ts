import { formatInstant } from '../time/instant.js';
import { formatWindow, type Window } from '../time/window.js';

/** The parts of a range one account's stream has not read (its partitions' gaps, merged). */
export interface Gap {
  account: string;
  stream: string;
  windows: Window[];
  /** The part of them the platform refused as older than it reaches (docs/history.md): no run fills it. */
  unreachable?: Window[];
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
    if ((g.unreachable ?? []).length > 0) {
      return `${g.account} ${g.stream} ${spans} (the platform answers nothing that old: it stays a gap; --allow-gaps writes the files with it, docs/history.md)`;
    }
    return `${g.account} ${g.stream} ${spans} (fill with: ledgerpipe extract --from ${from} --to ${to} --streams ${g.stream}${profile})`;
  });
  return `the warehouse does not cover the whole range: ${parts.join('; ')}`;
}
