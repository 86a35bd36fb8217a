/**
 * A sliding window per key (one second unless told otherwise): a request is admitted when fewer than `capacity`
 * requests were admitted in the `windowMs` up to its time (`(t - windowMs, t]`). Rejected requests do not count.
 * `--rate-scale` changes the capacity, so a limit of 10/s at scale 1000 admits 10,000 in any one second, never
 * more.
 *
 * Times may come out of order: behind the front (src/sim/front.ts) a request counts at its arrival, and a busy
 * simulator may get to a later arrival first. A time before the latest is admitted only if the windows of the
 * later times it falls in stay within the capacity too, as a server taking them in order of arrival would have
 * found them.
 */
export class SlidingWindowLimiter {
  readonly capacity: number;
  readonly windowMs: number;
  /** Per key, the admitted times in order; those before `start` have left every window that can still matter. */
  private readonly windows = new Map<string, { times: number[]; start: number }>();

  /**
   * @param perSecond the limit in requests per second (after scaling); fractional limits below one per
   *   second keep one request per (1000 / perSecond) ms.
   * @param windowSeconds the window the limit is counted over (default 1; 60 for a limit per minute, which
   *   then admits `perSecond * 60` requests in any minute, bursts included).
   */
  constructor(perSecond: number, windowSeconds = 1) {
    if (!(perSecond > 0)) throw new RangeError(`rate limit must be positive, got ${perSecond}`);
    this.capacity = Math.max(1, Math.floor(perSecond * windowSeconds));
    this.windowMs = (1000 * this.capacity) / perSecond;
  }

  /** Admits or rejects one request at `now`; `remaining` is what is left in the window up to it. */
  tryAcquire(key: string, now: number): { admitted: boolean; remaining: number } {
    let w = this.windows.get(key);
    if (w === undefined) {
      w = { times: [], start: 0 };
      this.windows.set(key, w);
    }
    this.forget(w, now);
    const { times } = w;
    /** The index of the first time after `t`. */
    const after = (t: number): number => {
      let [lo, hi] = [w.start, times.length];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((times[mid] as number) <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    /** How many admitted times lie in the window that ends at `t`: (t - windowMs, t]. */
    const inWindow = (t: number): number => after(t) - after(t - this.windowMs);
    const at = after(now);
    if (inWindow(now) >= this.capacity) return { admitted: false, remaining: 0 };
    // Out of order: each later time whose window `now` falls in must keep room for it.
    for (let i = at; i < times.length && (times[i] as number) < now + this.windowMs; i++) {
      if (inWindow(times[i] as number) >= this.capacity) return { admitted: false, remaining: 0 };
    }
    if (at === times.length) times.push(now);
    else times.splice(at, 0, now);
    return { admitted: true, remaining: this.capacity - inWindow(now) };
  }

  /** Drops the times no window can count any more: three windows before the latest time seen. */
  private forget(w: { times: number[]; start: number }, now: number): void {
    const latest = Math.max(now, w.times[w.times.length - 1] ?? now);
    while (w.start < w.times.length && (w.times[w.start] as number) <= latest - 3 * this.windowMs) w.start++;
    if (w.start > 4096 && w.start * 2 > w.times.length) {
      w.times.splice(0, w.start);
      w.start = 0;
    }
  }
}
