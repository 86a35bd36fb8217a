import type { Window } from '../time/window.js';
import type { StreamStats } from './stats.js';

/** Receives extraction progress; one per command run. */
export interface ProgressReporter {
  /** After every committed page of one account's stream; `window` holds the page's records, when it had any. */
  update(account: string, stream: string, stats: StreamStats, window?: Window): void;
  /** Stops any live display; call before printing results. */
  stop(): void;
}

export const silentProgress: ProgressReporter = { update: () => {}, stop: () => {} };
