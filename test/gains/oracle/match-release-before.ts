// The matching as the release before issue 45 had it, whole events in, kept here unchanged as the oracle the
// streaming matchers (src/gains/match.ts) are checked against (test/gains/matchers.test.ts).
import { min, mulDiv, ZERO, type Dec } from '../../../src/gains/decimal.js';

/**
 * The matching of disposals with acquisitions of one asset in one pool (docs/gains.md): FIFO, HIFO, average
 * cost, or the UK's same-day, 30-day and section 104 rules. Pure: events in, slices and open lots out.
 */
import type { CostBasis } from '../../../src/tables/settings.js';

export type { CostBasis };

/** One movement of the asset, in time order. */
export interface GainEvent {
  account: string;
  ts: number;
  /** The day the rules count in (UK local time for `uk`): YYYY-MM-DD. */
  day: string;
  /** acquire: a lot in; dispose: a disposal; remove: coins that leave without being disposed of (a withdrawal). */
  kind: 'acquire' | 'dispose' | 'remove';
  /** More than zero. */
  quantity: Dec;
  /** acquire: its cost; dispose: its proceeds; remove: unused. */
  value: Dec;
  /** dispose: its allowable fees. */
  fees: Dec;
  tradeGroup: string | null;
  flags: readonly string[];
}

/** One matched slice of a disposal (or of a removal). */
export interface Slice {
  account: string;
  quantity: Dec;
  disposedAt: number;
  /** The acquisition matched, or null for a pool (average, section 104) or nothing (unmatched). */
  acquiredAt: number | null;
  /** Filled in for disposals; null for a removal. */
  proceeds: Dec | null;
  cost: Dec;
  fees: Dec | null;
  matchRule: string;
  tradeGroup: string | null;
  flags: string[];
}

/** A lot still open (fifo, hifo), or the pool (average, uk: acquiredAt null). */
export interface OpenLot {
  account: string;
  quantity: Dec;
  cost: Dec;
  acquiredAt: number | null;
}

/** What a disposal takes from the lots: quantity, cost, the acquisition's time (null for a pool) and the rule. */
interface Take {
  quantity: Dec;
  cost: Dec;
  acquiredAt: number | null;
  rule: string;
}

/** What is left of `lot` after `take` of it: the slice's cost is its share, rounded once; the lot keeps the rest. */
function takeFrom(lot: { quantity: Dec; cost: Dec }, take: Dec): Dec {
  const cost = take === lot.quantity ? lot.cost : mulDiv(lot.cost, take, lot.quantity);
  lot.quantity -= take;
  lot.cost -= cost;
  return cost;
}

/**
 * The slices of one disposal from its takes: its proceeds and fees shared by quantity, each rounded once, the
 * last slice taking what is left so that they add up exactly. A part no lot covers is an `unmatched` slice at
 * zero cost, flagged.
 */
function slicesOf(event: GainEvent, takes: readonly Take[]): Slice[] {
  const covered = takes.reduce((sum, t) => sum + t.quantity, ZERO);
  const all =
    covered < event.quantity
      ? [...takes, { quantity: event.quantity - covered, cost: ZERO, acquiredAt: null, rule: 'unmatched' }]
      : takes;
  let proceedsLeft = event.value;
  let feesLeft = event.fees;
  let quantityLeft = event.quantity;
  return all.map((take) => {
    const last = take.quantity === quantityLeft;
    const proceeds = last ? proceedsLeft : mulDiv(event.value, take.quantity, event.quantity);
    const fees = last ? feesLeft : mulDiv(event.fees, take.quantity, event.quantity);
    proceedsLeft -= proceeds;
    feesLeft -= fees;
    quantityLeft -= take.quantity;
    const removal = event.kind === 'remove';
    const flags = take.rule === 'unmatched' ? [...event.flags, 'no_acquisition'] : [...event.flags];
    return {
      account: event.account,
      quantity: take.quantity,
      disposedAt: event.ts,
      acquiredAt: take.acquiredAt,
      proceeds: removal ? null : proceeds,
      cost: take.cost,
      fees: removal ? null : fees,
      matchRule: removal ? `withdrawal_${take.rule}` : take.rule,
      tradeGroup: event.tradeGroup,
      flags,
    };
  });
}

/** What the matchers of lots (fifo, hifo) do: take lots in, give takes out, say what is left open. */
interface LotMatcher {
  acquire(lot: OpenLot): void;
  take(quantity: Dec): Take[];
  open(): OpenLot[];
}

/** Takes `wanted` from the lot `next()` gives, again and again, while lots are left; `done` drops a spent lot. */
function takeLots(wanted: Dec, rule: string, next: () => OpenLot | undefined, done: () => void): Take[] {
  const takes: Take[] = [];
  let left = wanted;
  for (let lot = next(); left > ZERO && lot !== undefined; lot = next()) {
    const take = min(left, lot.quantity);
    takes.push({ quantity: take, cost: takeFrom(lot, take), acquiredAt: lot.acquiredAt, rule });
    left -= take;
    if (lot.quantity === ZERO) done();
  }
  return takes;
}

/** FIFO: lots in a queue, the oldest first. */
function fifoMatcher(): LotMatcher {
  const lots: OpenLot[] = [];
  let head = 0;
  return {
    acquire: (lot) => void lots.push(lot),
    take: (quantity) =>
      takeLots(
        quantity,
        'fifo',
        () => lots[head],
        () => void head++,
      ),
    open: () => lots.slice(head),
  };
}

/**
 * HIFO: lots in a binary heap by unit cost, the highest first (compared exactly, cross-multiplied), ties by age;
 * a lot partly taken keeps its unit cost but for the rounding of its slice's cost, so it stays where it is.
 */
function hifoMatcher(): LotMatcher {
  const heap: OpenLot[] = [];
  const before = (a: OpenLot, b: OpenLot): boolean => {
    const left = a.cost * b.quantity;
    const right = b.cost * a.quantity;
    return left !== right ? left > right : (a.acquiredAt ?? 0) < (b.acquiredAt ?? 0);
  };
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as OpenLot, heap[i] as OpenLot]);
  const up = (start: number) => {
    for (let i = start; i > 0 && before(heap[i] as OpenLot, heap[(i - 1) >> 1] as OpenLot); i = (i - 1) >> 1)
      swap(i, (i - 1) >> 1);
  };
  const down = () => {
    for (let i = 0; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let best = i;
      if (l < heap.length && before(heap[l] as OpenLot, heap[best] as OpenLot)) best = l;
      if (r < heap.length && before(heap[r] as OpenLot, heap[best] as OpenLot)) best = r;
      if (best === i) return;
      swap(i, best);
      i = best;
    }
  };
  const pop = () => {
    const last = heap.pop() as OpenLot;
    if (heap.length > 0) {
      heap[0] = last;
      down();
    }
  };
  return {
    acquire: (lot) => {
      heap.push(lot);
      up(heap.length - 1);
    },
    take: (quantity) => takeLots(quantity, 'hifo', () => heap[0], pop),
    open: () => [...heap].sort((a, b) => (a.acquiredAt ?? 0) - (b.acquiredAt ?? 0)),
  };
}

/** Matches the events of one asset in one pool by FIFO, HIFO or average cost, in time order. */
function matchInOrder(
  events: readonly GainEvent[],
  method: 'fifo' | 'hifo' | 'average',
): { slices: Slice[]; open: OpenLot[] } {
  const slices: Slice[] = [];
  if (method === 'average') {
    const pool = { quantity: ZERO, cost: ZERO };
    for (const event of events) {
      if (event.kind === 'acquire') {
        pool.quantity += event.quantity;
        pool.cost += event.value;
        continue;
      }
      const quantity = min(event.quantity, pool.quantity);
      const takes =
        quantity === ZERO ? [] : [{ quantity, cost: takeFrom(pool, quantity), acquiredAt: null, rule: 'average' }];
      slices.push(...slicesOf(event, takes));
    }
    const account = events[0]?.account ?? '';
    return {
      slices,
      open: pool.quantity === ZERO ? [] : [{ account, quantity: pool.quantity, cost: pool.cost, acquiredAt: null }],
    };
  }
  const lots = method === 'fifo' ? fifoMatcher() : hifoMatcher();
  for (const event of events) {
    if (event.kind === 'acquire')
      lots.acquire({ account: event.account, quantity: event.quantity, cost: event.value, acquiredAt: event.ts });
    else slices.push(...slicesOf(event, lots.take(event.quantity)));
  }
  return { slices, open: lots.open() };
}

/** One UK day's acquisitions (one acquisition, HMRC's rule) or disposals, with what is still unmatched. */
interface Day {
  day: string;
  /** The time of the day's first event. */
  first: number;
  acquired: { quantity: Dec; cost: Dec; at: number };
  disposals: GainEvent[];
  /** Withdrawals: not disposals, so no same-day or 30-day match; they leave the pool at its cost. */
  removals: GainEvent[];
  /** The day's disposals' takes, in the order the rules made them. */
  takes: Take[];
  /** Disposed quantity not yet matched. */
  open: Dec;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/**
 * The UK rules (HMRC CRYPTO22200 onwards): a day's disposals are one disposal and its acquisitions one
 * acquisition; a disposal is matched with acquisitions of the same day, then with those of the next 30 days
 * (earliest first, earlier disposals first), then with the section 104 pool at its average cost. What is
 * acquired and not matched joins the pool on its day. A removal (a withdrawal) leaves the pool at its cost.
 */
function matchUk(events: readonly GainEvent[], openAt: number | undefined): { slices: Slice[]; open: OpenLot[] } {
  const days = ukDays(events);
  for (const day of days) {
    const quantity = min(day.acquired.quantity, day.open);
    if (quantity > ZERO) {
      day.takes.push({
        quantity,
        cost: takeFrom(day.acquired, quantity),
        acquiredAt: day.acquired.at,
        rule: 'same_day',
      });
      day.open -= quantity;
    }
  }
  days.forEach((day, i) => {
    for (let j = i + 1; j < days.length && day.open > ZERO; j++) {
      const later = days[j] as Day;
      if (dayNumber(later.day) - dayNumber(day.day) > 30) break;
      const quantity = min(later.acquired.quantity, day.open);
      if (quantity === ZERO) continue;
      day.takes.push({
        quantity,
        cost: takeFrom(later.acquired, quantity),
        acquiredAt: later.acquired.at,
        rule: 'thirty_day',
      });
      day.open -= quantity;
    }
  });
  const pool = { quantity: ZERO, cost: ZERO };
  const slices: Slice[] = [];
  // The pool open at `openAt`: the days after it were read only for the 30 days their acquisitions match.
  let atOpen: { quantity: Dec; cost: Dec } | undefined;
  for (const day of days) {
    if (openAt !== undefined && atOpen === undefined && day.first >= openAt) atOpen = { ...pool };
    pool.quantity += day.acquired.quantity;
    pool.cost += day.acquired.cost;
    const quantity = min(day.open, pool.quantity);
    if (quantity > ZERO)
      day.takes.push({ quantity, cost: takeFrom(pool, quantity), acquiredAt: null, rule: 'section_104' });
    slices.push(...daySlices(day));
    for (const removal of day.removals) {
      const out = min(removal.quantity, pool.quantity);
      slices.push(
        ...slicesOf(
          removal,
          out === ZERO ? [] : [{ quantity: out, cost: takeFrom(pool, out), acquiredAt: null, rule: 'section_104' }],
        ),
      );
    }
  }
  const account = events[0]?.account ?? '';
  const open = atOpen ?? pool;
  return {
    slices: openAt === undefined ? slices : slices.filter((s) => s.disposedAt < openAt),
    open: open.quantity === ZERO ? [] : [{ account, quantity: open.quantity, cost: open.cost, acquiredAt: null }],
  };
}

/** The events grouped by day: acquisitions summed; disposals kept, their quantity summed as `open`; removals kept. */
function ukDays(events: readonly GainEvent[]): Day[] {
  const days: Day[] = [];
  for (const event of events) {
    let day = days[days.length - 1];
    if (day === undefined || day.day !== event.day) {
      day = {
        day: event.day,
        first: event.ts,
        acquired: { quantity: ZERO, cost: ZERO, at: event.ts },
        disposals: [],
        removals: [],
        takes: [],
        open: ZERO,
      };
      days.push(day);
    }
    if (event.kind === 'acquire') {
      if (day.acquired.quantity === ZERO) day.acquired.at = event.ts;
      day.acquired.quantity += event.quantity;
      day.acquired.cost += event.value;
    } else if (event.kind === 'remove') {
      day.removals.push(event);
    } else {
      day.disposals.push(event);
      day.open += event.quantity;
    }
  }
  return days;
}

/**
 * A day's slices: HMRC's one disposal of the day, its takes shared out among the day's disposals in their order,
 * so that each row keeps its own account, time and trade group.
 */
function daySlices(day: Day): Slice[] {
  const slices: Slice[] = [];
  const takes = day.takes.map((t) => ({ ...t }));
  let t = 0;
  for (const event of day.disposals) {
    const mine: Take[] = [];
    let wanted = event.quantity;
    while (wanted > ZERO && t < takes.length) {
      const take = takes[t] as Take;
      const quantity = min(wanted, take.quantity);
      mine.push({ quantity, cost: takeFrom(take, quantity), acquiredAt: take.acquiredAt, rule: take.rule });
      wanted -= quantity;
      if (take.quantity === ZERO) t++;
    }
    slices.push(...slicesOf(event, mine));
  }
  return slices;
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
  return method === 'uk' ? matchUk(events, openAt) : matchInOrder(events, method);
}
