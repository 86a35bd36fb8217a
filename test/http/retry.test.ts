import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../src/errors/extract-error.js';
import { PlatformError } from '../../src/errors/platform-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import { backoffMs, DEFAULT_RETRY, withRetry, type RetryDeps, type RetryPolicy } from '../../src/http/retry.js';

const PATH = '/api/v2/mix/order/fill-history';
const LABEL = `GET ${PATH}`;

const platform = (platformCode: string, httpStatus = 400, platformMessage = 'refused') =>
  new PlatformError({ path: PATH, httpStatus, platformCode, platformMessage });
const tooMany = () => platform('429', 429, 'Too Many Requests');
const reset = () => new TransportError(`${LABEL}: connection failed (ECONNRESET)`, 'LP_NET_FAILED');

type Step = Error | string;

/**
 * An attempt that fails or succeeds as the script says, one step per call, plus fake deps that record
 * every sleep, random draw, clock sync and event.
 */
function scripted(steps: readonly Step[], randoms: readonly number[] = [0.5]) {
  const calls = { attempts: 0, syncs: 0, draws: 0 };
  const sleeps: number[] = [];
  const events: string[] = [];
  const attempt = (): Promise<string> => {
    const step = steps[calls.attempts++];
    if (step === undefined) throw new Error(`attempt ${calls.attempts} is beyond the script`);
    return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
  };
  const deps: RetryDeps = {
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => randoms[calls.draws++ % randoms.length] as number,
    syncTime: () => {
      calls.syncs++;
      return Promise.resolve(0);
    },
    onEvent: (event) => events.push(`${event.kind}#${event.attempt}:${event.error.code}`),
  };
  return { attempt, deps, calls, sleeps, events };
}

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({ ...DEFAULT_RETRY, ...overrides });

/** The error `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('backoffMs', () => {
  it('draws a share of base * 2^attempt (full jitter)', () => {
    expect(backoffMs(DEFAULT_RETRY, 0, () => 0.5)).toBe(125);
    expect(backoffMs(DEFAULT_RETRY, 1, () => 0.5)).toBe(250);
    expect(backoffMs(DEFAULT_RETRY, 3, () => 0.5)).toBe(1000);
    expect(backoffMs(DEFAULT_RETRY, 5, () => 0.25)).toBe(2000);
  });

  it('caps the range at capMs', () => {
    expect(backoffMs(DEFAULT_RETRY, 6, () => 0.5)).toBe(7500);
    expect(backoffMs(DEFAULT_RETRY, 30, () => 0.5)).toBe(7500);
    expect(backoffMs({ ...DEFAULT_RETRY, baseMs: 100, capMs: 300 }, 2, () => 0.5)).toBe(150);
  });

  it('rounds down, so a draw stays below the range', () => {
    expect(backoffMs(DEFAULT_RETRY, 0, () => 0)).toBe(0);
    expect(backoffMs(DEFAULT_RETRY, 0, () => 0.999_999)).toBe(249);
    expect(backoffMs(DEFAULT_RETRY, 2, () => 0.123)).toBe(123);
  });
});

describe('withRetry', () => {
  it('returns the first success without sleeping', async () => {
    const { attempt, deps, calls, sleeps, events } = scripted(['data']);
    expect(await withRetry(attempt, policy(), deps, LABEL)).toBe('data');
    expect(calls).toEqual({ attempts: 1, syncs: 0, draws: 0 });
    expect(sleeps).toEqual([]);
    expect(events).toEqual([]);
  });

  it('retries transport failures with exact full-jitter backoffs', async () => {
    const { attempt, deps, calls, sleeps, events } = scripted([reset(), reset(), reset(), 'data'], [0.5, 0.25, 0.9]);
    expect(await withRetry(attempt, policy(), deps, LABEL)).toBe('data');
    expect(calls.attempts).toBe(4);
    // floor(0.5 * 250), floor(0.25 * 500), floor(0.9 * 1000)
    expect(sleeps).toEqual([125, 125, 900]);
    expect(events).toEqual(['retry#1:LP_NET_FAILED', 'retry#2:LP_NET_FAILED', 'retry#3:LP_NET_FAILED']);
  });

  it('retries transient platform codes and HTTP 5xx', async () => {
    const { attempt, deps, calls, sleeps } = scripted([
      platform('40015'),
      platform('40725', 200),
      platform('99999', 503),
      'data',
    ]);
    expect(await withRetry(attempt, policy(), deps, LABEL)).toBe('data');
    expect(calls.attempts).toBe(4);
    expect(sleeps).toEqual([125, 250, 500]);
  });

  it('gives up after maxAttempts transport failures with LP_RETRIES_EXHAUSTED', async () => {
    const last = new TransportError(`${LABEL}: HTTP 502 with a body that is not JSON (21 bytes)`, 'LP_BAD_BODY');
    const { attempt, deps, calls, sleeps } = scripted([reset(), reset(), last]);
    const error = await rejection(withRetry(attempt, policy({ maxAttempts: 3 }), deps, LABEL));
    expect(error).toBeInstanceOf(ExtractError);
    expect(error).toMatchObject({ code: 'LP_RETRIES_EXHAUSTED', exit: 'incomplete', retryable: false, cause: last });
    expect((error as ExtractError).message).toBe(
      'GET /api/v2/mix/order/fill-history: gave up after 3 attempts (last: GET /api/v2/mix/order/fill-history: HTTP 502 with a body that is not JSON (21 bytes)); everything fetched so far is saved, run again later to resume',
    );
    expect(calls.attempts).toBe(3);
    expect(sleeps).toEqual([125, 250]);
  });

  it('waits out 429s without counting them toward maxAttempts', async () => {
    const { attempt, deps, calls, sleeps, events } = scripted([...Array.from({ length: 20 }, tooMany), 'data']);
    expect(await withRetry(attempt, policy({ maxAttempts: 3, rateLimitWaitMs: 1000 }), deps, LABEL)).toBe('data');
    expect(calls).toEqual({ attempts: 21, syncs: 0, draws: 0 });
    expect(sleeps).toEqual(Array.from({ length: 20 }, () => 1000));
    expect(events.length).toBe(20);
    expect(events[0]).toBe('rate-limited#1:LP_PLATFORM_429');
    expect(events[19]).toBe('rate-limited#20:LP_PLATFORM_429');
  });

  it('waits rateLimitWaitMs after a 429 whether the status or the code says so', async () => {
    const { attempt, deps, sleeps } = scripted([
      platform('429', 200, 'Too Many Requests'),
      platform('30007', 429, 'busy'),
      'data',
    ]);
    expect(await withRetry(attempt, policy({ rateLimitWaitMs: 250 }), deps, LABEL)).toBe('data');
    expect(sleeps).toEqual([250, 250]);
  });

  it('still counts transient failures between 429s', async () => {
    const { attempt, deps, calls, sleeps } = scripted([reset(), tooMany(), reset(), tooMany(), reset()]);
    const error = await rejection(withRetry(attempt, policy({ maxAttempts: 3, rateLimitWaitMs: 1000 }), deps, LABEL));
    expect(error).toMatchObject({ code: 'LP_RETRIES_EXHAUSTED', exit: 'incomplete' });
    expect(calls.attempts).toBe(5);
    expect(sleeps).toEqual([125, 1000, 250, 1000]);
  });

  it('gives up with LP_RATE_LIMITED after more than maxRateLimited 429s in a row', async () => {
    const last = tooMany();
    const { attempt, deps, calls, sleeps } = scripted([...Array.from({ length: 60 }, tooMany), last]);
    const error = await rejection(withRetry(attempt, policy({ maxRateLimited: 60 }), deps, LABEL));
    expect(error).toBeInstanceOf(ExtractError);
    expect(error).toMatchObject({ code: 'LP_RATE_LIMITED', exit: 'incomplete', retryable: false, cause: last });
    expect((error as ExtractError).message).toBe(
      'GET /api/v2/mix/order/fill-history: the platform answered 429 Too Many Requests 61 times in a row; another client may share this API key — run again later to resume',
    );
    expect(calls.attempts).toBe(61);
    expect(sleeps).toEqual(Array.from({ length: 60 }, () => 1000));
  });

  it('counts 429s in a row only: any other answer starts the count again', async () => {
    const { attempt, deps, calls } = scripted([tooMany(), tooMany(), reset(), tooMany(), tooMany(), 'data']);
    expect(await withRetry(attempt, policy({ maxRateLimited: 2 }), deps, LABEL)).toBe('data');
    expect(calls.attempts).toBe(6);
  });

  it('re-syncs the clock after a 40008 and retries at once', async () => {
    const { attempt, deps, calls, sleeps, events } = scripted([
      platform('40008', 400, 'Request timestamp expired'),
      'data',
    ]);
    expect(await withRetry(attempt, policy({ maxAttempts: 1 }), deps, LABEL)).toBe('data');
    expect(calls).toEqual({ attempts: 2, syncs: 1, draws: 0 });
    expect(sleeps).toEqual([]);
    expect(events).toEqual(['resync#1:LP_PLATFORM_40008']);
  });

  it('re-syncs at most three times, then throws the 40008', async () => {
    const last = platform('40008', 400, 'Request timestamp expired');
    const expired = () => platform('40008', 400, 'Request timestamp expired');
    const { attempt, deps, calls } = scripted([expired(), expired(), expired(), last]);
    expect(await rejection(withRetry(attempt, policy(), deps, LABEL))).toBe(last);
    expect(calls).toEqual({ attempts: 4, syncs: 3, draws: 0 });
  });

  it.each([
    ['40009', 'sign signature error', 'auth'],
    ['40012', 'apikey/password is incorrect', 'auth'],
    ['40019', 'Parameter verification exception', 'unexpected'],
    ['00001', 'startTime and endTime interval cannot be greater than 30 days', 'unexpected'],
  ])('throws a non-retryable %s at once, after exactly one attempt', async (code, message, exit) => {
    const refusal = platform(code, 400, message);
    const { attempt, deps, calls, sleeps, events } = scripted([refusal, 'data']);
    const error = await rejection(withRetry(attempt, policy(), deps, LABEL));
    expect(error).toBe(refusal);
    expect(error).toMatchObject({ code: `LP_PLATFORM_${code}`, retryable: false, exit });
    expect(calls).toEqual({ attempts: 1, syncs: 0, draws: 0 });
    expect(sleeps).toEqual([]);
    expect(events).toEqual([]);
  });

  it('throws errors that are not ledgerpipe errors at once', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const { attempt, deps, calls } = scripted([bug, 'data']);
    expect(await rejection(withRetry(attempt, policy(), deps, LABEL))).toBe(bug);
    expect(calls.attempts).toBe(1);
  });
});
