/**
 * The matching of disposals with acquisitions of one asset in one pool (docs/gains.md): FIFO, HIFO, average
 * cost, or the UK's same-day, 30-day and section 104 rules. Pure: movements in, slices and open lots out, one
 * movement at a time, with a state a later run can go on from (src/gains/kept.ts).
 */
import type { CostBasis } from '../tables/settings.js';
import type { GainEvent, OpenLot, Slice } from './events.js';
import { averageMatcher, lotMatcher } from './lot-matchers.js';
import type { Matcher, MatcherState } from './matcher-state.js';
import { ukMatcher } from './uk-matcher.js';

export type { CostBasis, GainEvent, Matcher, MatcherState, OpenLot, Slice };

/**
 * A matcher by `method`, empty or going on from a kept state. `hold` (the UK rules): days from then on stay open
 * to the end (ukMatcher).
 *
 * @example
 * const m = createMatcher('hifo', kept); m.feed(event);
 */
export function createMatcher(method: CostBasis, kept?: MatcherState, hold?: number): Matcher {
  if (kept !== undefined && kept.method !== method)
    throw new Error(`a ${kept.method} state given to the ${method} matcher`);
  switch (method) {
    case 'fifo':
    case 'hifo':
      return lotMatcher(method, kept as Extract<MatcherState, { method: 'fifo' | 'hifo' }> | undefined);
    case 'average':
      return averageMatcher(kept as Extract<MatcherState, { method: 'average' }> | undefined);
    case 'uk':
      return ukMatcher(kept as Extract<MatcherState, { method: 'uk' }> | undefined, hold);
  }
}

/**
 * The slices and open lots of one asset's events in one pool, in time order. For the UK rules, `openAt` is the
 * range's end when the events reach 30 days past it (their acquisitions match its last disposals: HMRC
 * CRYPTO22256): the slices of later disposals are left out, and the pool is the one open at it.
 *
 * @example
 * const { slices, open } = matchEvents(events, 'fifo');
 */
export function matchEvents(
  events: readonly GainEvent[],
  method: CostBasis,
  openAt?: number,
): { slices: Slice[]; open: OpenLot[] } {
  const matcher = createMatcher(method, undefined, openAt);
  const slices = events.flatMap((e) => matcher.feed(e));
  const end = matcher.finish(openAt);
  const all = [...slices, ...end.slices];
  return { slices: openAt === undefined ? all : all.filter((s) => s.disposedAt < openAt), open: end.open };
}
