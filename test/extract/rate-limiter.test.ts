import { describe, expect, it } from 'vitest';
import { underBudget } from '../../src/extract/ip-budget.js';
import { createRateLimiter, type RateLimiter } from '../../src/extract/rate-limiter.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';

const T0 = 1_700_000_000_000;

/** A fake clock and a sleep that moves it: no test waits through real seconds. */
function fakeTime() {
  const clock: FakeClock = fakeClock(T0);
  const sleeps: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    clock.advance(ms);
    return Promise.resolve();
  };
  return { clock, sleeps, sleep };
}

function limiter(perSecond: number, marginMs?: number) {
  const time = fakeTime();
  const rateLimiter = createRateLimiter({
    perSecond,
    clock: time.clock.now,
    sleep: time.sleep,
    ...(marginMs === undefined ? {} : { marginMs }),
  });
  return { ...time, limiter: rateLimiter };
}

/** Acquires `n` grants one after the other and returns the clock at each, relative to T0. */
async function grantTimes(rateLimiter: RateLimiter, clock: FakeClock, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await rateLimiter.acquire();
    times.push(clock.now() - T0);
  }
  return times;
}

/** The most grants that fall in any half-open window [t, t + windowMs); the busiest one starts at a grant. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  return Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));
}

/** A small deterministic PRNG (mulberry32), so the property check is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

describe('createRateLimiter', () => {
  it('grants 10 at once at 10/s, then the 11th at t0 + 1000 + 25 ms margin', async () => {
    const { limiter: l, clock, sleeps } = limiter(10, 25);
    expect(await grantTimes(l, clock, 21)).toEqual([...repeat(0, 10), ...repeat(1025, 10), 2050]);
    expect(sleeps).toEqual([1025, 1025]);
  });

  it('uses a 50 ms margin by default', async () => {
    const { limiter: l, clock } = limiter(10);
    expect(await grantTimes(l, clock, 12)).toEqual([...repeat(0, 10), 1050, 1050]);
  });

  it('uses exactly one second with a zero margin', async () => {
    const { limiter: l, clock } = limiter(10, 0);
    expect(await grantTimes(l, clock, 11)).toEqual([...repeat(0, 10), 1000]);
  });

  it('spaces 1/s grants one window plus margin apart', async () => {
    const { limiter: l, clock, sleeps } = limiter(1, 25);
    expect(await grantTimes(l, clock, 4)).toEqual([0, 1025, 2050, 3075]);
    expect(sleeps).toEqual([1025, 1025, 1025]);
  });

  it('keeps one grant per 1000 / perSecond ms below one per second', async () => {
    const { limiter: l, clock } = limiter(0.5, 25);
    expect(await grantTimes(l, clock, 3)).toEqual([0, 2025, 4050]);
  });

  it('rounds a fractional limit down to its capacity and stretches the window to match', async () => {
    // 2.5/s: 2 grants per 800 ms (+ 25 ms margin), which is 2.5/s over time, as the simulator counts it.
    const { limiter: l, clock } = limiter(2.5, 25);
    expect(await grantTimes(l, clock, 6)).toEqual([0, 0, 825, 825, 1650, 1650]);
  });

  it('does not sleep when the caller is already slower than the limit', async () => {
    const { limiter: l, clock, sleeps } = limiter(2, 25);
    const times: number[] = [];
    for (const gap of [0, 600, 600, 600]) {
      clock.advance(gap);
      await l.acquire();
      times.push(clock.now() - T0);
    }
    expect(times).toEqual([0, 600, 1200, 1800]);
    expect(sleeps).toEqual([]);
  });

  it('sleeps only for what is left of the window when the caller is a little fast', async () => {
    const { limiter: l, clock, sleeps } = limiter(2, 25);
    const times: number[] = [];
    for (const gap of [0, 600, 100, 0]) {
      clock.advance(gap);
      await l.acquire();
      times.push(clock.now() - T0);
    }
    // Third: the first grant (0) leaves the window at 1025. Fourth: the second (600) leaves it at 1625.
    expect(times).toEqual([0, 600, 1025, 1625]);
    expect(sleeps).toEqual([325, 600]);
  });

  it('sleeps even for the last millisecond of the window', async () => {
    const { limiter: l, clock, sleeps } = limiter(1, 0);
    await l.acquire();
    clock.advance(999);
    await l.acquire();
    expect(clock.now() - T0).toBe(1000);
    expect(sleeps).toEqual([1]);
  });

  it('never lets a 1000 ms window hold more than the capacity, over many irregular grants', async () => {
    for (const perSecond of [1, 3, 10, 20]) {
      const { limiter: l, clock } = limiter(perSecond, 25);
      const random = prng(perSecond);
      const times: number[] = [];
      for (let i = 0; i < 600; i++) {
        // Bursts and pauses: mostly back to back, sometimes a pause of up to 1.5 s.
        clock.advance(random() < 0.8 ? 0 : Math.floor(random() * 1500));
        await l.acquire();
        times.push(clock.now());
      }
      expect(busiestWindow(times, 1000)).toBe(perSecond);
      // The n-th and the (n + capacity)-th grant are at least one window plus the margin apart.
      const spans = times.slice(perSecond).map((t, i) => t - (times[i] as number));
      expect(Math.min(...spans)).toBeGreaterThanOrEqual(1025);
    }
  });

  it('serves concurrent acquire() calls first come, first served', async () => {
    const { limiter: l, clock, sleeps } = limiter(10, 25);
    const order: number[] = [];
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        l.acquire().then(() => {
          order.push(i);
          times.push(clock.now() - T0);
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(times).toEqual([...repeat(0, 10), ...repeat(1025, 10), ...repeat(2050, 5)]);
    expect(sleeps).toEqual([1025, 1025]);
  });

  it('does not let a later caller overtake one that is still sleeping', async () => {
    const clock = fakeClock(T0);
    const pending: Array<() => void> = [];
    /** A sleep the test ends by hand, to see who is granted while a sleep is in progress. */
    const sleep = (ms: number) =>
      new Promise<void>((resolve) =>
        pending.push(() => {
          clock.advance(ms);
          resolve();
        }),
      );
    const l = createRateLimiter({ perSecond: 1, marginMs: 0, clock: clock.now, sleep });
    const granted: string[] = [];
    await l.acquire();
    const second = l.acquire().then(() => granted.push(`second@${clock.now() - T0}`));
    await flush();
    expect(pending.length).toBe(1);
    clock.advance(1500); // A third caller arrives after the window has passed, while the second still sleeps.
    const third = l.acquire().then(() => granted.push(`third@${clock.now() - T0}`));
    await flush();
    expect(granted).toEqual([]);
    pending.shift()?.(); // The second's sleep of 1000 ms ends (the clock is now at 2500).
    await flush();
    expect(granted).toEqual(['second@2500']);
    pending.shift()?.(); // The third sleeps one window after the second's grant.
    await Promise.all([second, third]);
    expect(granted).toEqual(['second@2500', 'third@3500']);
  });
});

/** Lets every queued promise callback run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('under the IP budget', () => {
  it('counts a reserved grant from when it is sent, and holds the next until then', async () => {
    const { clock, limiter: key } = limiter(1, 0);
    const sent = await key.reserve();
    // The request waits 5 s elsewhere (at the budget) before it leaves.
    clock.advance(5000);
    const next = key.acquire().then(() => clock.now() - T0);
    await Promise.resolve();
    sent();
    // The next one leaves a full window after the first left, not after it was admitted.
    expect(await next).toBe(6000);
  });

  it('never lets one key send faster than its limit, however the budget bunches its grants', async () => {
    const time = fakeTime();
    const key = createRateLimiter({ perSecond: 2, clock: time.clock.now, sleep: time.sleep, marginMs: 0 });
    // A budget of 60 a minute at a 60-s window: it grants in bursts and then makes everyone wait.
    const budget = createRateLimiter({
      perSecond: 1,
      windowMs: 60_000,
      clock: time.clock.now,
      sleep: time.sleep,
      marginMs: 0,
    });
    const paced = underBudget(key, budget);
    const times: number[] = [];
    for (let i = 0; i < 150; i++) {
      await paced.acquire();
      times.push(time.clock.now() - T0);
    }
    expect([busiestWindow(times, 1000), busiestWindow(times, 60_000)]).toEqual([2, 60]);
  });
});

describe('after a 429', () => {
  it('keeps the window a fifth longer for 30 windows after the last 429, then goes back to it', async () => {
    const { limiter: l, clock } = limiter(1, 0);
    expect(await grantTimes(l, clock, 2)).toEqual([0, 1000]);
    l.rateLimited();
    // 1200 ms apart while widened (until 1000 + 30 s), one window apart after.
    const times = await grantTimes(l, clock, 27);
    expect(times.slice(0, 3)).toEqual([2200, 3400, 4600]);
    expect(times.slice(-4)).toEqual([29800, 31000, 32000, 33000]);
  });

  it('widens the key, not the budget, when paced under the IP budget', async () => {
    const time = fakeTime();
    const key = createRateLimiter({ perSecond: 1, clock: time.clock.now, sleep: time.sleep, marginMs: 0 });
    const budget = createRateLimiter({ perSecond: 100, clock: time.clock.now, sleep: time.sleep, marginMs: 0 });
    const paced = underBudget(key, budget);
    await paced.acquire();
    paced.rateLimited();
    await paced.acquire();
    expect(time.clock.now() - T0).toBe(1200);
    expect(await grantTimes(budget, time.clock, 3)).toEqual([1200, 1200, 1200]);
  });
});
