import type { BudgetFile, ClaimResult } from './ip-budget-file.js';

/**
 * How long a grant of the machine's budget may be spent. Short, since the grant counts for the lease and the
 * window after it (a longer lease leaves more of the budget idle: 0.5 s of a minute is 0.8%); long enough that a
 * busy process claims a few times a second, not per request. Like the arrival margin, it does not shrink with
 * --rate-scale: the time to read and write the file does not.
 */
export const LEASE_MS = 500;
/** After a pause, this many requests may leave at once before the gap between them (minGapMs) applies. */
const BURST = 4;
/** A refused claim is tried again no sooner than this (the file is not touched more often)... */
const MIN_POLL_MS = 100;
/** ... and no later than this, whatever the file says (a clock that jumped, a process that ended). */
const MAX_POLL_MS = 1000;

export interface SharedLeaseOptions {
  file: BudgetFile;
  /** The limit over every process of the machine, in any window of `windowMs`. */
  perMinute: number;
  /** The platform's minute (scaled) and the arrival margin: how long a request counts after it leaves. */
  windowMs: number;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /** The file could not be used (said once by the caller): from now on every request goes without it. */
  onFailure: (error: unknown) => void;
  /** The file held something that was not a budget, and was started afresh. */
  onReplaced?: () => void;
  /**
   * The least time between two requests it lets go (default 0). A grant of hundreds let go in one turn reaches the
   * platform as one burst, whose last requests are counted late; a key's next request, sent on time, then seems early.
   */
  minGapMs?: number;
}

/** The process's side of the machine's budget for one address: requests take their turn from grants of the file. */
export interface SharedLease {
  /** Resolves when one request may leave now (within the lease): first come, first served. */
  take(): Promise<void>;
  /** Gives back what the last grant has left and refuses the requests still waiting; the budget is not used after. */
  close(): Promise<void>;
}

interface Lease {
  at: number;
  n: number;
  used: number;
}

/**
 * Hands out the machine's budget a request at a time from grants claimed from the shared file a batch at a time
 * (ip-budget-file.ts). A grant is as large as the demand the last one showed (twice it, when it ran out before its
 * lease ended) or as the requests waiting, at most a tenth of the limit, so a busy process touches the file a few
 * times a second and a quiet one rarely. A grant's requests leave no closer together than `minGapMs`. Refused, it
 * tries again when the file says more frees up. What a grant leaves unspent when its lease ends is given back at the
 * next claim, and at close.
 *
 * @example
 * const lease = createSharedLease({ file, perMinute: 5400, windowMs: 61_100, clock: Date.now, sleep, onFailure });
 * await lease.take(); // then send
 */
export function createSharedLease(options: SharedLeaseOptions): SharedLease {
  const holder = new LeaseHolder(options);
  return {
    take: () => holder.take(),
    close: () => holder.close(),
  };
}

/** A request waiting for its turn. */
interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The previous lease's unspent part, to give back with the next claim (its lease over, it cannot be spent). */
function toSettle(l: Lease | undefined) {
  return l !== undefined && l.used < l.n ? { settle: { at: l.at, n: l.n, used: l.used } } : {};
}

/** createSharedLease's state: the grant being spent, the requests waiting for one, and the claims under way. */
class LeaseHolder {
  private readonly options: SharedLeaseOptions;
  private readonly holdMs: number;
  private readonly maxBatch: number;
  private readonly waiters: Waiter[] = [];
  private lease: Lease | undefined;
  /**
   * Whether claims are under way while requests wait: cleared in the same turn as the claims find no one waiting, so
   * a request that comes after starts them again. `claiming` is their promise, for close to wait for.
   */
  private busy = false;
  private claiming: Promise<void> = Promise.resolve();
  private state: 'open' | 'failed' | 'closed' = 'open';
  private readonly gap: number;
  /** When the next request may leave (minGapMs). */
  private nextDue = Number.NEGATIVE_INFINITY;

  constructor(options: SharedLeaseOptions) {
    this.options = options;
    this.holdMs = LEASE_MS + options.windowMs;
    this.maxBatch = Math.max(1, Math.ceil(options.perMinute / 10));
    this.gap = options.minGapMs ?? 0;
  }

  take(): Promise<void> {
    if (this.state === 'failed') return Promise.resolve();
    if (this.state === 'closed') return Promise.reject(new Error('the IP budget was closed: the run has ended'));
    if (this.waiters.length === 0 && this.spendable(this.lease) && this.options.clock() >= this.nextDue) {
      this.spend(this.lease);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.serve();
    });
  }

  async close(): Promise<void> {
    if (this.state === 'open') this.state = 'closed';
    for (const w of this.waiters.splice(0)) w.reject(new Error('the IP budget was closed: the run has ended'));
    await this.claiming;
    const settle = toSettle(this.lease);
    this.lease = undefined;
    if (this.state === 'failed' || settle.settle === undefined) return;
    try {
      await this.options.file.claim({
        want: 0,
        needed: 0,
        perMinute: this.options.perMinute,
        holdMs: this.holdMs,
        ...settle,
      });
    } catch {
      // What was not given back stops counting with its minute.
    }
  }

  private spendable(l: Lease | undefined): l is Lease {
    return l !== undefined && l.used < l.n && this.options.clock() < l.at + LEASE_MS;
  }

  private wantNow(): number {
    const { clock } = this.options;
    const lease = this.lease;
    // What the last lease showed of the demand, if it is recent: all of it spent, twice as much; else what was spent.
    const recent =
      lease === undefined || clock() > lease.at + 2 * LEASE_MS ? 0 : lease.used === lease.n ? 2 * lease.n : lease.used;
    return Math.min(this.maxBatch, Math.max(1, this.waiters.length, recent));
  }

  /** Spends one request of the lease, due now. */
  private spend(l: Lease): void {
    l.used++;
    this.nextDue = Math.max(this.nextDue, this.options.clock() - BURST * this.gap) + this.gap;
  }

  /** Lets go the waiting requests the lease has and that are due, first come first. */
  private handOut(): void {
    while (this.waiters.length > 0 && this.spendable(this.lease) && this.options.clock() >= this.nextDue) {
      this.spend(this.lease);
      this.waiters.shift()?.resolve();
    }
  }

  private serve(): void {
    this.handOut();
    if (this.waiters.length > 0 && !this.busy && this.state === 'open') {
      this.busy = true;
      this.claiming = this.claimWhileWaiting();
    }
  }

  private fail(error: unknown): void {
    this.state = 'failed';
    this.options.onFailure(error);
    // The process's own budget (the limiter in front of this one) paces them from here.
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  private async claimWhileWaiting(): Promise<void> {
    const { clock, file } = this.options;
    for (;;) {
      this.handOut();
      if (this.waiters.length === 0 || this.state !== 'open') {
        this.busy = false;
        return;
      }
      if (this.spendable(this.lease)) {
        // The lease has more, not yet due (handOut let go what was).
        await this.options.sleep(Math.max(0, this.nextDue - clock()));
        continue;
      }
      let result: ClaimResult & { replaced?: boolean };
      try {
        result = await file.claim({
          want: this.wantNow(),
          needed: this.waiters.length,
          perMinute: this.options.perMinute,
          holdMs: this.holdMs,
          ...toSettle(this.lease),
        });
      } catch (error) {
        this.busy = false;
        this.fail(error);
        return;
      }
      if (result.replaced === true) this.options.onReplaced?.();
      this.lease = result.granted > 0 ? { at: result.at, n: result.granted, used: 0 } : undefined;
      if (this.lease !== undefined) continue;
      const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, (result.retryAt ?? 0) - clock()));
      await this.options.sleep(wait);
    }
  }
}
