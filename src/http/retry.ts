import { ExtractError } from '../errors/extract-error.js';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { PlatformError, TIMESTAMP_EXPIRED } from '../errors/platform-error.js';

export interface RetryPolicy {
  /** Attempts for transient failures, the first included (default 8). */
  maxAttempts: number;
  /** Backoff before attempt n+1 is a random share of min(capMs, baseMs * 2^n): "full jitter". */
  baseMs: number;
  capMs: number;
  /** How long to wait after a 429 before asking again (default 1000: the limits are per second). */
  rateLimitWaitMs: number;
  /** 429s absorbed in a row before giving up (default 60). */
  maxRateLimited: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseMs: 250,
  capMs: 15_000,
  rateLimitWaitMs: 1000,
  maxRateLimited: 60,
};

export interface RetryDeps {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Re-reads the server clock after a 40008 answer. */
  syncTime: () => Promise<unknown>;
  /** Told of every absorbed 429 and every retried failure, for progress and benchmarks. */
  onEvent?: (event: { kind: 'rate-limited' | 'retry' | 'resync'; error: LedgerpipeError; attempt: number }) => void;
}

/** Full-jitter exponential backoff: a uniform draw from [0, min(cap, base * 2^attempt)). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  return Math.floor(random() * Math.min(policy.capMs, policy.baseMs * 2 ** attempt));
}

/**
 * Runs one request until it succeeds or fails for good. Transient failures (network, timeouts, 5xx, bad
 * bodies, the live transient codes) are retried with backoff up to `maxAttempts`; a 429 is waited out and
 * not counted as a failure; a 40008 re-syncs the clock and retries; anything else is thrown at once.
 * `attempt` must pace itself (rate limiter) and sign afresh on every call.
 *
 * @example
 * const data = await withRetry(() => limiter.acquire().then(() => client.get(path, params)), DEFAULT_RETRY, deps, 'fill-history');
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  deps: RetryDeps,
  label: string,
): Promise<T> {
  let failures = 0;
  let rateLimited = 0;
  let resyncs = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof LedgerpipeError)) throw error;
      if (error instanceof PlatformError && error.rateLimited) {
        rateLimited++;
        deps.onEvent?.({ kind: 'rate-limited', error, attempt: rateLimited });
        if (rateLimited > policy.maxRateLimited) {
          throw new ExtractError(
            `${label}: the platform answered 429 Too Many Requests ${rateLimited} times in a row; another client may share this API key — run again later to resume`,
            'LP_RATE_LIMITED',
            { exit: 'incomplete', cause: error },
          );
        }
        await deps.sleep(policy.rateLimitWaitMs);
        continue;
      }
      rateLimited = 0;
      let failure: LedgerpipeError = error;
      if (error instanceof PlatformError && error.platformCode === TIMESTAMP_EXPIRED && resyncs < 3) {
        resyncs++;
        deps.onEvent?.({ kind: 'resync', error, attempt: resyncs });
        try {
          await deps.syncTime();
          continue;
        } catch (syncError) {
          // The clock could not be read: a failure like any other, retried while attempts last.
          if (!(syncError instanceof LedgerpipeError)) throw syncError;
          failure = syncError;
        }
      }
      if (!failure.retryable) throw failure;
      failures++;
      if (failures >= policy.maxAttempts) {
        throw new ExtractError(
          `${label}: gave up after ${failures} attempts (last: ${failure.message}); everything fetched so far is saved, run again later to resume`,
          'LP_RETRIES_EXHAUSTED',
          { exit: 'incomplete', cause: failure },
        );
      }
      deps.onEvent?.({ kind: 'retry', error: failure, attempt: failures });
      await deps.sleep(backoffMs(policy, failures - 1, deps.random));
    }
  }
}
