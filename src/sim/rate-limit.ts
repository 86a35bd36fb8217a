/**
 * A sliding window per key (one second unless told otherwise): a request is admitted when fewer than `capacity` requests were
 * admitted in the last `windowMs`. Rejected requests do not count. `--rate-scale` changes the capacity, so
 * a limit of 10/s at scale 1000 admits 10,000 in any one second, never more.
 */
export class SlidingWindowLimiter {
  readonly capacity: number;
  readonly windowMs: number;
  private readonly windows = new Map<string, { times: Float64Array; head: number; size: number }>();

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

  /** Admits or rejects one request at `now`; `remaining` is what is left in the current window. */
  tryAcquire(key: string, now: number): { admitted: boolean; remaining: number } {
    let w = this.windows.get(key);
    if (w === undefined) {
      w = { times: new Float64Array(this.capacity), head: 0, size: 0 };
      this.windows.set(key, w);
    }
    while (w.size > 0 && (w.times[w.head] as number) <= now - this.windowMs) {
      w.head = (w.head + 1) % this.capacity;
      w.size--;
    }
    if (w.size >= this.capacity) return { admitted: false, remaining: 0 };
    w.times[(w.head + w.size) % this.capacity] = now;
    w.size++;
    return { admitted: true, remaining: this.capacity - w.size };
  }
}
