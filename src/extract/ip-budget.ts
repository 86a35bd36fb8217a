import { createRateLimiter, type RateLimiter } from './rate-limiter.js';

/**
 * The live cap of one IP address over every key and endpoint is 6,000 requests a minute, and going over blocks
 * the address for five minutes (docs/platform.md, "Answers and errors"). ledgerpipe keeps 10% below it by
 * default: another program on the machine, or a clock that drifts, must not cost every account five minutes.
 */
export const DEFAULT_IP_LIMIT_PER_MINUTE = 5400;

/**
 * The budget's window is kept this much longer than a minute. The platform counts arrivals: requests sent in a
 * burst reach it over the time it takes to take them in, so the first of a window can arrive late while the
 * first of the next arrives at once. A second covers that on an ordinary link; it does not shrink with
 * --rate-scale, since the network's delays do not.
 */
const ARRIVAL_MARGIN_MS = 1100;

/** One limiter per platform address, shared by every account of the process (docs/many-accounts.md). */
export interface IpBudget {
  forAddress(baseUrl: string): RateLimiter;
}

export interface IpBudgetOptions {
  /** Requests a minute over every key. */
  perMinute: number;
  /** --rate-scale: the minute is this many times shorter, as the simulator keeps it. */
  rateScale?: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * The process's IP budget: for each platform address (its origin), a sliding one-minute window over every
 * request of every account. Requests are granted first come, first served, so no account starves: each waits
 * behind the requests already queued, whoever's they are.
 *
 * @example
 * const budget = createIpBudget({ perMinute: DEFAULT_IP_LIMIT_PER_MINUTE, clock: Date.now, sleep });
 * const ip = budget.forAddress(account.baseUrl);
 */
export function createIpBudget(options: IpBudgetOptions): IpBudget {
  const limiters = new Map<string, RateLimiter>();
  return {
    forAddress: (baseUrl) => {
      const origin = new URL(baseUrl).origin;
      let limiter = limiters.get(origin);
      if (limiter === undefined) {
        const scale = options.rateScale ?? 1;
        limiter = createRateLimiter({ perSecond: (options.perMinute * scale) / 60, windowMs: 60_000 / scale, marginMs: ARRIVAL_MARGIN_MS, clock: options.clock, sleep: options.sleep });
        limiters.set(origin, limiter);
      }
      return limiter;
    },
  };
}

/**
 * One endpoint's pacing for one key under the IP budget: the key's limiter admits the request (so a key never
 * queues more than its own rate at the budget), then the budget grants it. Both windows count it from when it
 * is sent (`reserve`'s callback), not from when it was admitted: a request may wait at the budget, and requests
 * that waited there must not leave closer together than the key's limit.
 */
export function underBudget(key: RateLimiter, budget: RateLimiter): RateLimiter {
  const reserve = async (): Promise<() => void> => {
    const keySent = await key.reserve();
    let budgetSent: () => void;
    try {
      budgetSent = await budget.reserve();
    } catch (error) {
      keySent();
      throw error;
    }
    return () => {
      budgetSent();
      keySent();
    };
  };
  return {
    reserve,
    acquire: async () => (await reserve())(),
    // The budget keeps its own wide margin (ARRIVAL_MARGIN_MS); a 429 is most likely the key's window.
    rateLimited: () => key.rateLimited(),
  };
}
