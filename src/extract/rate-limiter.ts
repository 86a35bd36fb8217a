/** Paces requests to one endpoint for one API key. */
export interface RateLimiter {
  /** Resolves when one more request may be sent without exceeding the limit in any one-second window. */
  acquire(): Promise<void>;
  /**
   * Like acquire, for a request that waits for something else before it leaves (the IP budget): resolves
   * with `sent`, to call when it leaves (always, even if it never does). Its time in the window is the time
   * `sent` is called, and the requests behind it wait until then: the window counts departures.
   */
  reserve(): Promise<() => void>;
  /**
   * The platform answered 429 all the same: something between the window and the server brought requests
   * closer together than they left. For a while (30 windows) the window is kept a fifth longer.
   */
  rateLimited(): void;
}

export interface RateLimiterOptions {
  /** The endpoint's limit in requests per second (after any scale). */
  perSecond: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /**
   * Extra spacing on top of the window, because the server counts arrivals and the network can bring two
   * requests closer together than they left (default 50 ms: 5% of a one-second window).
   */
  marginMs?: number;
  /** The window the limit is counted over (default 1000 ms; 60 000 for a limit a minute, bursts allowed). */
  windowMs?: number;
}

/** After a 429, the window is this much longer (a fifth) ... */
const WIDENED_BY = 0.2;
/** ... for this many windows after the last 429 (30 s for a limit a second). */
const WIDENED_FOR_WINDOWS = 30;

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
  const capacity = Math.max(1, Math.floor((options.perSecond * (options.windowMs ?? 1000)) / 1000));
  const windowMs = (1000 * capacity) / options.perSecond + (options.marginMs ?? 50);
  const grants = new Float64Array(capacity);
  /** For a grant not yet sent: the promise that it is. */
  const unsent: (Promise<void> | undefined)[] = Array.from({ length: capacity }, () => undefined);
  let head = 0;
  let size = 0;
  let tail: Promise<unknown> = Promise.resolve();
  let widenedUntil = Number.NEGATIVE_INFINITY;
  const windowNow = () => (options.clock() < widenedUntil ? windowMs * (1 + WIDENED_BY) : windowMs);

  const grant = async (): Promise<() => void> => {
    if (size === capacity) {
      await unsent[head];
      const wait = (grants[head] as number) + windowNow() - options.clock();
      if (wait > 0) await options.sleep(wait);
      head = (head + 1) % capacity;
      size--;
    }
    // A slot is reused only after its grant was sent (awaited above), so `sent` never writes another's slot.
    const slot = (head + size) % capacity;
    grants[slot] = options.clock();
    size++;
    let markSent!: () => void;
    const mine = new Promise<void>((resolve) => (markSent = resolve));
    unsent[slot] = mine;
    return () => {
      // Only once, and only while the slot is still this grant's.
      if (unsent[slot] !== mine) return;
      grants[slot] = options.clock();
      unsent[slot] = undefined;
      markSent();
    };
  };

  const reserve = (): Promise<() => void> => {
    const next = tail.then(grant);
    // One caller's failed sleep must not fail every caller after it.
    tail = next.catch(() => undefined);
    return next;
  };

  return {
    reserve,
    acquire: async () => (await reserve())(),
    rateLimited: () => {
      widenedUntil = options.clock() + WIDENED_FOR_WINDOWS * windowMs;
    },
  };
}
