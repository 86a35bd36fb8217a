/** Counters of one extraction, per stream and in all. */
export interface StreamStats {
  windowsPlanned: number;
  windowsDone: number;
  /** Windows already covered by an earlier run, not requested again. */
  windowsSkipped: number;
  pages: number;
  records: number;
  outside: number;
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
  pages: 0,
  records: 0,
  outside: 0,
  quarantined: 0,
  tiePages: 0,
  requests: 0,
  rateLimited: 0,
  retries: 0,
});

/** Adds up the per-stream counters. */
export function totalStats(streams: Readonly<Record<string, StreamStats>>): StreamStats {
  const total = emptyStreamStats();
  for (const s of Object.values(streams)) {
    for (const key of Object.keys(total) as (keyof StreamStats)[]) total[key] += s[key];
  }
  return total;
}
