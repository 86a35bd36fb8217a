import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/sim/rate-limit.js';

describe('SlidingWindowLimiter', () => {
  it('admits the limit in any one second and rejects the next, per key', () => {
    const limiter = new SlidingWindowLimiter(10);
    const admitted = Array.from({ length: 11 }, (_, i) => limiter.tryAcquire('k', 1000 + i * 10).admitted);
    expect(admitted).toEqual([...Array(10).fill(true), false]);
    expect(limiter.tryAcquire('other', 1100)).toEqual({ admitted: true, remaining: 9 });
    // The oldest request (t=1000) leaves the window at t=2000, not before.
    expect(limiter.tryAcquire('k', 1999).admitted).toBe(false);
    expect(limiter.tryAcquire('k', 2000)).toEqual({ admitted: true, remaining: 0 });
    expect(limiter.tryAcquire('k', 2005).admitted).toBe(false);
    expect(limiter.tryAcquire('k', 2010).admitted).toBe(true);
  });

  it('does not count rejected requests', () => {
    const limiter = new SlidingWindowLimiter(1);
    expect(limiter.tryAcquire('k', 0).admitted).toBe(true);
    for (let t = 100; t < 1000; t += 100) expect(limiter.tryAcquire('k', t).admitted).toBe(false);
    expect(limiter.tryAcquire('k', 1000).admitted).toBe(true);
  });

  it('scales: 1/s times 1000 admits 1000 per second; 1/s times 0.5 admits one per two seconds', () => {
    const fast = new SlidingWindowLimiter(1 * 1000);
    expect(fast.capacity).toBe(1000);
    const slow = new SlidingWindowLimiter(0.5);
    expect([slow.tryAcquire('k', 0).admitted, slow.tryAcquire('k', 1999).admitted, slow.tryAcquire('k', 2000).admitted]).toEqual([true, false, true]);
  });
});
