import { describe, expect, it } from 'vitest';
import { dec, type Dec } from '../../src/gains/decimal.js';
import { createMatcher, matchEvents, type CostBasis, type GainEvent, type Slice } from '../../src/gains/match.js';
import { matchEvents as matchedBefore } from './oracle/match-release-before.js';

/** A small deterministic generator (mulberry32): the same histories on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const START = Date.UTC(2024, 2, 1);

/**
 * A history of one asset: acquisitions, disposals and withdrawals over some 150 days, bunched so that days hold
 * several of each (the UK rules' same day) and gaps of more and less than 30 days; quantities and values with up
 * to 18 places, some acquisitions worth nothing, some instants shared, two accounts.
 */
function history(seed: number, size: number): GainEvent[] {
  const next = random(seed);
  const amount = (scale: number): Dec => dec((next() * scale).toFixed(Math.floor(next() * 19))) + 1n;
  const events: GainEvent[] = [];
  let ts = START;
  for (let i = 0; i < size; i++) {
    const r = next();
    ts +=
      r < 0.2
        ? 0
        : r < 0.7
          ? Math.floor(next() * 6 * 3_600_000)
          : r < 0.95
            ? Math.floor(next() * 5 * DAY_MS)
            : 35 * DAY_MS;
    const k = next();
    const kind: GainEvent['kind'] = k < 0.45 ? 'acquire' : k < 0.9 ? 'dispose' : 'remove';
    events.push({
      account: next() < 0.7 ? 'a' : 'b',
      ts,
      day: new Date(ts).toISOString().slice(0, 10),
      kind,
      quantity: amount(kind === 'acquire' ? 12 : 8),
      value: next() < 0.1 ? 0n : amount(5000),
      fees: kind === 'dispose' && next() < 0.5 ? amount(20) : 0n,
      tradeGroup: next() < 0.5 ? `g${i}` : null,
      flags: next() < 0.2 ? ['fee'] : [],
    });
  }
  return events;
}

/**
 * The same events through a matcher that is stopped and started again from its kept state (through JSON, as the
 * warehouse keeps it) at each of `stops`.
 */
function matchedInRuns(
  events: readonly GainEvent[],
  method: CostBasis,
  stops: readonly number[],
  openAt?: number,
): { slices: Slice[]; open: unknown } {
  let matcher = createMatcher(method, undefined, openAt);
  const slices: Slice[] = [];
  events.forEach((event, i) => {
    if (stops.includes(i)) matcher = createMatcher(method, JSON.parse(JSON.stringify(matcher.state())), openAt);
    slices.push(...matcher.feed(event));
  });
  const end = matcher.finish(openAt);
  const all = [...slices, ...end.slices];
  return { slices: openAt === undefined ? all : all.filter((s) => s.disposedAt < openAt), open: end.open };
}

describe('the matchers, one movement at a time', () => {
  for (const method of ['fifo', 'hifo', 'average', 'uk'] as const) {
    it(`${method}: match as the release before did, and go on from a kept state as if never stopped`, () => {
      const rules = new Set<string>();
      for (let seed = 1; seed <= 40; seed++) {
        const events = history(seed, 60 + seed * 3);
        const last = events.at(-1)?.ts ?? START;
        // The UK rules with a range's end within the history (the days after it read for their 30 days) or none.
        const openAt = method === 'uk' && seed % 2 === 0 ? last - 20 * DAY_MS : undefined;
        const before = matchedBefore(events, method, openAt);
        expect(matchEvents(events, method, openAt), `seed ${seed}`).toEqual(before);
        for (const slice of before.slices) rules.add(slice.matchRule);
        const next = random(seed * 7919);
        const stops = [...new Set(Array.from({ length: 6 }, () => Math.floor(next() * events.length)))];
        expect(matchedInRuns(events, method, stops, openAt), `seed ${seed}, stops ${stops.join(' ')}`).toEqual(before);
      }
      // The histories reach every rule of the method, and lots that run out.
      const expected =
        method === 'uk'
          ? ['same_day', 'thirty_day', 'section_104', 'withdrawal_section_104', 'unmatched']
          : [method, `withdrawal_${method}`, 'unmatched'];
      expect([...rules].filter((r) => expected.includes(r)).sort()).toEqual([...expected].sort());
    });
  }
});
