import { join } from 'node:path';
import type { Logger } from '../util/logger.js';
import { budgetFile } from './ip-budget-file.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { createSharedLease, type SharedLease } from './shared-lease.js';

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

/**
 * Requests the machine's budget lets go leave at most two a millisecond (at --rate-scale 1): hundreds let go in one
 * turn reached the simulator as a burst it stamped up to a tenth of a second late, and a key's next request, sent a
 * window after, was refused as early (shared-lease.ts). 2,000 a second is above what 40 accounts' keys ask at once.
 */
const RELEASE_GAP_MS = 0.5;

const SEE = 'docs/many-accounts.md, "One budget per machine"';

/** One limiter per platform address, shared by every account of the process (docs/many-accounts.md). */
export interface IpBudget {
  forAddress(baseUrl: string): RateLimiter;
  /** Gives the machine's budget back what this process was granted and did not send; the budget is not used after. */
  close(): Promise<void>;
}

export interface IpBudgetOptions {
  /** Requests a minute over every key (and, with `machine`, over every process of the machine). */
  perMinute: number;
  /** --rate-scale: the minute is this many times shorter, as the simulator keeps it. */
  rateScale?: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /**
   * The machine's budget: the state directory (docs/many-accounts.md, "One budget per machine"), and the log that
   * says, once, when its files cannot be used. Without it, the budget is the process's alone.
   */
  machine?: { dir: string; log: Logger };
}

/**
 * The IP budget: for each platform address (its origin), a sliding one-minute window over every request of every
 * account of the process. Requests are granted first come, first served, so no account starves: each waits
 * behind the requests already queued, whoever's they are. With `machine`, each request also takes its turn from
 * the machine's budget of that address, a file every process reading it shares (shared-lease.ts,
 * ip-budget-file.ts): runs one after another and runs at once stay within the limit together. A file that cannot
 * be used is said once, and the process goes on with its own budget.
 *
 * @example
 * const machine = { dir: stateDir(process.env), log };
 * const budget = createIpBudget({ perMinute: DEFAULT_IP_LIMIT_PER_MINUTE, clock: Date.now, sleep, machine });
 * const ip = budget.forAddress(account.baseUrl);
 */
export function createIpBudget(options: IpBudgetOptions): IpBudget {
  const limiters = new Map<string, RateLimiter>();
  const leases: SharedLease[] = [];
  const scale = options.rateScale ?? 1;
  const windowMs = 60_000 / scale;
  // Each said once for the process, whatever the number of addresses.
  const said = new Set<'failed' | 'replaced'>();
  const warnOnce = (what: 'failed' | 'replaced', message: string) => {
    if (said.has(what)) return;
    said.add(what);
    options.machine?.log.warn(message);
  };
  const shared = (origin: string): SharedLease | undefined => {
    const lease = machineLease(options, origin, { windowMs, scale }, warnOnce);
    if (lease !== undefined) leases.push(lease);
    return lease;
  };
  return {
    forAddress: (baseUrl) => {
      const origin = new URL(baseUrl).origin;
      let limiter = limiters.get(origin);
      if (limiter === undefined) {
        const own = createRateLimiter({
          perSecond: (options.perMinute * scale) / 60,
          windowMs,
          marginMs: ARRIVAL_MARGIN_MS,
          clock: options.clock,
          sleep: options.sleep,
        });
        const lease = shared(origin);
        limiter = lease === undefined ? own : withLease(own, lease);
        limiters.set(origin, limiter);
      }
      return limiter;
    },
    close: async () => {
      await Promise.all(leases.map((l) => l.close()));
    },
  };
}

/**
 * The machine's budget of `origin`: a file every process reading the address shares, whose failures are said
 * once through `warnOnce`; none without `machine`.
 */
function machineLease(
  options: IpBudgetOptions,
  origin: string,
  pace: { windowMs: number; scale: number },
  warnOnce: (what: 'failed' | 'replaced', message: string) => void,
): SharedLease | undefined {
  const { windowMs, scale } = pace;
  const machine = options.machine;
  if (machine === undefined) return undefined;
  const file = budgetFile({
    dir: join(machine.dir, 'ip-budget'),
    origin,
    clock: options.clock,
    sleep: options.sleep,
  });
  return createSharedLease({
    file,
    perMinute: options.perMinute,
    windowMs: windowMs + ARRIVAL_MARGIN_MS,
    clock: options.clock,
    sleep: options.sleep,
    minGapMs: RELEASE_GAP_MS / scale,
    onFailure: (error) =>
      warnOnce(
        'failed',
        `the IP budget of ${origin} is this process's alone: ${reasonOf(error, file.path)}. Other processes reading it at once, ` +
          `or just before, are not counted; set LEDGERPIPE_STATE_DIR to a folder this user can write (${SEE})`,
      ),
    onReplaced: () =>
      warnOnce('replaced', `${file.path} held something other than an IP budget: started afresh (${SEE})`),
  });
}

/**
 * The process's window first (its fast path, and its whole budget should the machine's fail), then the machine's
 * lease. A request that waits for the lease holds its place in the window until it leaves: the window counts
 * departures, as the key's does (underBudget).
 */
function withLease(own: RateLimiter, lease: SharedLease): RateLimiter {
  const reserve = async (): Promise<() => void> => {
    const sent = await own.reserve();
    try {
      await lease.take();
    } catch (error) {
      sent();
      throw error;
    }
    return sent;
  };
  return { reserve, acquire: async () => (await reserve())(), rateLimited: () => own.rateLimited() };
}

/** Why the machine's budget cannot be used, in a few words: the path and the system's code. */
function reasonOf(error: unknown, path: string): string {
  const e = error as NodeJS.ErrnoException;
  return `cannot use ${e.path ?? path} (${e.code ?? (error instanceof Error ? error.message : String(error))})`;
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
