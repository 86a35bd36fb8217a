import { min, ZERO, type Dec } from './decimal.js';
import type { GainEvent, OpenLot, Slice } from './events.js';
import {
  eventFromState,
  eventState,
  fromUnits,
  takeFromState,
  takeState,
  units,
  type DayState,
  type Matcher,
  type UkState,
} from './matcher-state.js';
import { slicesOf, takeFrom, takeFromPool, type Take } from './slices.js';

/** One UK day's acquisitions (one acquisition, HMRC's rule) or disposals, with what is still unmatched. */
interface UkDay {
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
  /** Whether the day is over: its same-day match made, and the earlier days' 30-day matches with its acquisitions. */
  complete: boolean;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/**
 * The UK rules (HMRC CRYPTO22200 onwards), one movement at a time: a day's disposals are one disposal and its
 * acquisitions one acquisition; a disposal is matched with acquisitions of the same day, then with those of the
 * next 30 days (earliest first, earlier disposals first), then with the section 104 pool at its average cost.
 * What is acquired and not matched joins the pool on its day. A removal (a withdrawal) leaves the pool at its cost.
 *
 * The days are kept open while a later day within 30 may still match them: a day is complete when a later day
 * begins (its same-day match, then the open earlier days' 30-day matches with what it acquired, earliest first),
 * and it is closed (its acquisitions into the pool, its section 104 match, its slices final, its removals) when a
 * day more than 30 after it begins, or at finish. Days close in their order, so the pool sees them as one pass in
 * day order would; the matches are those of matching every day's same-day first and then each day's 30 days in
 * turn, since an earlier day always takes from a later one before a later one does.
 *
 * `hold`: days beginning at or after it are closed only at finish (the range's end of a run of the UK rules:
 * finish(openAt) takes the pool as it is when the first of them closes).
 *
 * @example
 * const m = ukMatcher(); for (const e of events) slices.push(...m.feed(e)); const { open } = m.finish(openAt);
 */
export function ukMatcher(kept?: UkState, hold?: number): Matcher {
  const pool = { quantity: fromUnits(kept?.pool[0] ?? '0'), cost: fromUnits(kept?.pool[1] ?? '0') };
  let account = kept?.account ?? null;
  const days: UkDay[] = (kept?.days ?? []).map(dayFromState);

  /** The day's same-day match, and the 30-day matches of the open days before it with what it acquired. */
  const complete = (day: UkDay): void => {
    const same = min(day.acquired.quantity, day.open);
    if (same > ZERO) {
      day.takes.push({
        quantity: same,
        cost: takeFrom(day.acquired, same),
        acquiredAt: day.acquired.at,
        rule: 'same_day',
      });
      day.open -= same;
    }
    for (const earlier of days) {
      if (earlier === day) break;
      if (earlier.open === ZERO || dayNumber(day.day) - dayNumber(earlier.day) > 30) continue;
      const quantity = min(day.acquired.quantity, earlier.open);
      if (quantity === ZERO) continue;
      earlier.takes.push({
        quantity,
        cost: takeFrom(day.acquired, quantity),
        acquiredAt: day.acquired.at,
        rule: 'thirty_day',
      });
      earlier.open -= quantity;
    }
    day.complete = true;
  };

  /** Closes the first open day: its acquisitions into the pool, its section 104 match, its slices, its removals. */
  const close = (): Slice[] => {
    const day = days.shift() as UkDay;
    pool.quantity += day.acquired.quantity;
    pool.cost += day.acquired.cost;
    day.takes.push(...takeFromPool(pool, day.open, 'section_104'));
    const slices = daySlices(day);
    for (const removal of day.removals)
      slices.push(...slicesOf(removal, takeFromPool(pool, removal.quantity, 'section_104')));
    return slices;
  };

  return {
    feed: (event) => {
      account ??= event.account;
      let last = days.at(-1);
      const slices: Slice[] = [];
      if (last === undefined || last.day !== event.day) {
        if (last !== undefined && !last.complete) complete(last);
        // Days more than 30 before this one can match nothing more: closed, in order (but those held to the end).
        for (
          let first = days[0];
          first !== undefined &&
          dayNumber(event.day) - dayNumber(first.day) > 30 &&
          (hold === undefined || first.first < hold);
          first = days[0]
        )
          slices.push(...close());
        last = newDay(event);
        days.push(last);
      }
      if (event.kind === 'acquire') {
        if (last.acquired.quantity === ZERO) last.acquired.at = event.ts;
        last.acquired.quantity += event.quantity;
        last.acquired.cost += event.value;
      } else if (event.kind === 'remove') {
        last.removals.push(event);
      } else {
        last.disposals.push(event);
        last.open += event.quantity;
      }
      return slices;
    },
    state: () => ({ method: 'uk', account, pool: [units(pool.quantity), units(pool.cost)], days: days.map(dayState) }),
    finish: (openAt) => {
      const last = days.at(-1);
      if (last !== undefined && !last.complete) complete(last);
      const slices: Slice[] = [];
      // The pool open at `openAt`: the days after it were read only for the 30 days their acquisitions match.
      let atOpen: { quantity: Dec; cost: Dec } | undefined;
      while (days.length > 0) {
        if (openAt !== undefined && atOpen === undefined && (days[0] as UkDay).first >= openAt) atOpen = { ...pool };
        slices.push(...close());
      }
      const open = atOpen ?? pool;
      return {
        slices: openAt === undefined ? slices : slices.filter((s) => s.disposedAt < openAt),
        open: poolLots(open, account),
      };
    },
  };
}

/** The UK day `event` begins: nothing acquired or disposed of yet, its acquisitions' time the event's. */
function newDay(event: GainEvent): UkDay {
  return {
    day: event.day,
    first: event.ts,
    acquired: { quantity: ZERO, cost: ZERO, at: event.ts },
    disposals: [],
    removals: [],
    takes: [],
    open: ZERO,
    complete: false,
  };
}

/** The section 104 pool as open lots: one lot of no acquisition time, none when the pool is empty. */
function poolLots(pool: { quantity: Dec; cost: Dec }, account: string | null): OpenLot[] {
  return pool.quantity === ZERO
    ? []
    : [
        {
          account: account ?? '',
          quantity: pool.quantity,
          cost: pool.cost,
          acquiredAt: null,
        } satisfies OpenLot,
      ];
}

/**
 * A day's slices: HMRC's one disposal of the day, its takes shared out among the day's disposals in their order,
 * so that each row keeps its own account, time and trade group.
 */
function daySlices(day: UkDay): Slice[] {
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

function dayState(d: UkDay): DayState {
  return {
    day: d.day,
    first: d.first,
    acquired: [units(d.acquired.quantity), units(d.acquired.cost), d.acquired.at],
    disposals: d.disposals.map(eventState),
    removals: d.removals.map(eventState),
    takes: d.takes.map(takeState),
    open: units(d.open),
    complete: d.complete,
  };
}

function dayFromState(d: DayState): UkDay {
  return {
    day: d.day,
    first: d.first,
    acquired: { quantity: fromUnits(d.acquired[0]), cost: fromUnits(d.acquired[1]), at: d.acquired[2] },
    disposals: d.disposals.map(eventFromState),
    removals: d.removals.map(eventFromState),
    takes: d.takes.map(takeFromState),
    open: fromUnits(d.open),
    complete: d.complete,
  };
}
