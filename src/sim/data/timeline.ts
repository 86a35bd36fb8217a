import { DAY_MS, type SimRecord, type Payload } from './types.js';
import type { Rng } from './rng.js';

/** How far generated data reaches beyond each end of the range, so range filtering gets tested. */
export const MARGIN_BEYOND_MS = 3 * DAY_MS;

/** A half-open span of time with no records, so that some windows are empty. */
export interface Gap {
  start: number;
  end: number;
}

/**
 * Times that break extractors: one ms before and at each end of the range, two days beyond each end, and one ms before
 * and at every seam of every window size an extractor may plan with, counted from `from`.
 */
export function edgeTimes(from: number, to: number, windowsMs: readonly number[], gaps: readonly Gap[]): number[] {
  // Records well outside the range too, which an extractor must not load.
  const times = new Set<number>([from - 2 * DAY_MS - 777, from - 1, from, to - 1, to, to + 2 * DAY_MS + 777]);
  for (const windowMs of windowsMs) {
    for (let seam = from + windowMs; seam < to; seam += windowMs) {
      times.add(seam - 1);
      times.add(seam);
    }
  }
  return [...times].filter((t) => !inGap(t, gaps));
}

export function inGap(t: number, gaps: readonly Gap[]): boolean {
  return gaps.some((g) => t >= g.start && t < g.end);
}

/** `count` times drawn uniformly from `[start, end)`, avoiding the gaps. */
export function randomTimes(rng: Rng, count: number, start: number, end: number, gaps: readonly Gap[]): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const t = start + Math.floor(rng.next() * (end - start));
    if (!inGap(t, gaps)) out.push(t);
  }
  return out;
}

/** `length` copies of one time: a run of records sharing one millisecond. */
export function run(ts: number, length: number): number[] {
  return Array.from({ length }, () => ts);
}

/**
 * Snowflake-like 19-digit ids that grow with time: ts * 10^6 + sequence-in-millisecond * 10^3 + partition
 * * 10^2 + noise. Unique across a stream's partitions and strictly ordered like (ts, sequence).
 */
export function assignIds(sortedTimes: readonly number[], partitionIndex: number, rng: Rng): string[] {
  const ids: string[] = [];
  let previous = Number.NaN;
  let sequence = 0;
  for (const ts of sortedTimes) {
    sequence = ts === previous ? sequence + 1 : 0;
    previous = ts;
    if (sequence > 999) throw new Error('more than 1000 records in one millisecond of one partition');
    const id = BigInt(ts) * 1_000_000n + BigInt(sequence * 1000 + partitionIndex * 100 + rng.int(0, 99));
    ids.push(id.toString());
  }
  return ids;
}

/**
 * Builds a partition's records newest first from events, each of one or more records at one time (a trade's
 * legs): sorts the events by time, gives every record an id, and lets `build` make each payload (oldest first,
 * legs in order, so builders may carry state forward such as a running balance).
 */
export function buildEventRecords<E extends { ts: number; legs: readonly unknown[] }>(
  events: readonly E[],
  partitionIndex: number,
  rng: Rng,
  build: (event: E, leg: number, ts: number, id: string) => { record: Payload; before?: Payload },
): SimRecord[] {
  const slots = [...events]
    .sort((a, b) => a.ts - b.ts)
    .flatMap((event) => event.legs.map((_, leg) => ({ event, leg })));
  const ids = assignIds(
    slots.map((s) => s.event.ts),
    partitionIndex,
    rng,
  );
  const records = slots.map(({ event, leg }, index) => {
    const id = ids[index] as string;
    return { ts: event.ts, id, ...build(event, leg, event.ts, id) };
  });
  return records.reverse();
}

/** Builds a partition's records newest first, one record per time (buildEventRecords with one leg each). */
export function buildRecords(
  times: number[],
  partitionIndex: number,
  rng: Rng,
  build: (ts: number, id: string) => { record: Payload; before?: Payload },
): SimRecord[] {
  return buildEventRecords(
    times.map((ts) => ({ ts, legs: [0] })),
    partitionIndex,
    rng,
    (_event, _leg, ts, id) => build(ts, id),
  );
}

/** Mid-range anchor times for same-millisecond runs, away from seams. */
export function anchor(from: number, to: number, fraction: number): number {
  return from + Math.floor((to - from) * fraction) + 12_345;
}

/** A gap of 15 days (always spans one full 7-day window) in ranges of 45 days or more. */
export function fillGap(from: number, to: number): Gap[] {
  if (to - from < 45 * DAY_MS) return [];
  const start = from + Math.floor(((to - from) * 0.55) / DAY_MS) * DAY_MS;
  return [{ start, end: start + 15 * DAY_MS }];
}
