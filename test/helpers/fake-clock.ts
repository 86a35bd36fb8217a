/** A clock tests move by hand, so no test waits through real seconds of rate limit. */
export interface FakeClock {
  now: () => number;
  advance(ms: number): number;
}

export function fakeClock(start: number): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => (t += ms),
  };
}
