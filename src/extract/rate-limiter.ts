/** Paces requests to one endpoint for one API key. */
export interface RateLimiter {
  /** Resolves when one more request may be sent without exceeding the limit in any one-second window. */
  acquire(): Promise<void>;
}

export interface RateLimiterOptions {
  /** The endpoint's limit in requests per second (after any scale). */
  perSecond: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /**
   * Extra spacing on top of the one-second window, because the server counts arrivals and the network
   * can bring two requests closer together than they left (default 50 ms: 5% of the window).
   */
  marginMs?: number;
}

/**
 * A sliding-window limiter: the n-th grant and the (n+capacity)-th are always at least one window plus a
 * margin apart, so the server never sees more than the limit in any one second. Grants are strictly
 * first come, first served, and shared by every partition and window of the endpoint.
 *
 * @example
 * const limiter = createRateLimiter({ perSecond: 10, clock: Date.now, sleep });
 * await limiter.acquire(); // then send
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const capacity = Math.max(1, Math.floor(options.perSecond));
  const windowMs = (1000 * capacity) / options.perSecond + (options.marginMs ?? 50);
  const grants = new Float64Array(capacity);
  let head = 0;
  let size = 0;
  let tail: Promise<void> = Promise.resolve();

  const grant = async (): Promise<void> => {
    if (size === capacity) {
      const wait = (grants[head] as number) + windowMs - options.clock();
      if (wait > 0) await options.sleep(wait);
      head = (head + 1) % capacity;
      size--;
    }
    grants[(head + size) % capacity] = options.clock();
    size++;
  };

  return {
    acquire: () => {
      const next = tail.then(grant);
      // One caller's failed sleep must not fail every caller after it.
      tail = next.catch(() => undefined);
      return next;
    },
  };
}
