import { DAY_MS } from '../types.js';
import type { Rng } from '../rng.js';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

/** Something the account does at `ts`, sized from what it holds then. */
export interface Step {
  ts: number;
  run: () => void;
}

/** A time on day `day` (its midnight, UTC) when a European client is awake: 06:00 to 21:59 UTC. */
export function daytime(rng: Rng, day: number): number {
  return Math.floor(day / DAY_MS) * DAY_MS + rng.int(6, 21) * HOUR_MS + rng.int(0, 59) * MINUTE_MS + rng.int(0, 59_999);
}

/**
 * Times from `start` to before `end`, each `low` to `high` days after the one before, in the daytime; the first
 * `firstLow` to `high` days after `start` (the retail account's story starts each habit at once or later, the
 * unified account's no sooner than `low`).
 */
export function every(rng: Rng, start: number, end: number, low: number, high: number, firstLow = low): number[] {
  const out: number[] = [];
  for (let day = start + rng.int(firstLow, high) * DAY_MS; day < end; day += rng.int(low, high) * DAY_MS) {
    const ts = daytime(rng, day);
    if (ts > start && ts < end) out.push(ts);
  }
  return out;
}
