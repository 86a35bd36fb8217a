/** Counters of one extraction, per stream and in all. */
export interface StreamStats {
  windowsPlanned: number;
  windowsDone: number;
  /** Windows already covered by an earlier run, not requested again. */
  windowsSkipped: number;
  /** Windows refused as older than the platform reaches, recorded unreachable (docs/history.md). */
  windowsUnreachable: number;
  pages: number;
  records: number;
  /** Records outside the run's range, not loaded. */
  outside: number;
  /** Records the server returned outside the window they were asked for (loaded when inside the range). */
  outsideWindow: number;
  /** Windows that returned records of which none lay inside them: left unread, and the run exits 4. */
  strayWindows: number;
  quarantined: number;
  tiePages: number;
  requests: number;
  rateLimited: number;
  retries: number;
}

export const emptyStreamStats = (): StreamStats => ({
  windowsPlanned: 0,
  windowsDone: 0,
  windowsSkipped: 0,
  windowsUnreachable: 0,
  pages: 0,
  records: 0,
  outside: 0,
  outsideWindow: 0,
  strayWindows: 0,
  quarantined: 0,
  tiePages: 0,
  requests: 0,
  rateLimited: 0,
  retries: 0,
});

/** Adds `source`'s counters into `target`. */
export function addStats(target: StreamStats, source: Readonly<StreamStats>): StreamStats {
  for (const key of Object.keys(target) as (keyof StreamStats)[]) target[key] += source[key];
  return target;
}

/** Adds up the per-stream counters. */
export function totalStats(streams: Readonly<Record<string, StreamStats>>): StreamStats {
  return Object.values(streams).reduce(addStats, emptyStreamStats());
}
