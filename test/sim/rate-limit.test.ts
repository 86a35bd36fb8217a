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
    expect([
      slow.tryAcquire('k', 0).admitted,
      slow.tryAcquire('k', 1999).admitted,
      slow.tryAcquire('k', 2000).admitted,
    ]).toEqual([true, false, true]);
  });
});

describe('SlidingWindowLimiter with times out of order (behind the front)', () => {
  it('admits an earlier arrival got to late when the windows in order would have held it', () => {
    const limiter = new SlidingWindowLimiter(1);
    // Arrivals at 0 and 1050, the simulator getting to the second first: in order, both fit.
    expect(limiter.tryAcquire('k', 1050).admitted).toBe(true);
    expect(limiter.tryAcquire('k', 0).admitted).toBe(true);
    // One at 500 fits neither the window ending at 500 (0 is in it) nor the one ending at 1050 (500 would be in it).
    expect(limiter.tryAcquire('k', 500).admitted).toBe(false);
    expect(limiter.tryAcquire('k', 2100).admitted).toBe(true);
  });

  it('never lets any window of the admitted times hold more than the capacity, in any order', () => {
    const limiter = new SlidingWindowLimiter(10);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const admitted: number[] = [];
    let clock = 0;
    for (let i = 0; i < 3000; i++) {
      clock += random() * 60;
      // Up to 400 ms late, as a busy simulator gets to them.
      const t = Math.max(0, Math.round(clock - random() * 400));
      if (limiter.tryAcquire('k', t).admitted) admitted.push(t);
    }
    admitted.sort((a, b) => a - b);
    const busiest = Math.max(...admitted.map((u) => admitted.filter((v) => v > u - 1000 && v <= u).length));
    expect(busiest).toBe(10);
    expect(admitted.length).toBeGreaterThan(400);
  });
});
