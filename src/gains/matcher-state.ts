import type { Dec } from './decimal.js';
import type { GainEvent, OpenLot, Slice } from './events.js';
import type { Take } from './slices.js';

/**
 * What one pool and asset's matching holds between two movements, as plain JSON (amounts as the text of their
 * units of 10^-18), so that the warehouse can keep it (table gains_kept_states) and a later run go on from it
 * (src/gains/kept.ts). Restored, a matcher gives what it would have given had it never stopped: the lots in
 * their order (hifo: its heap as it lay, so that ties between lots of one unit cost and one time fall as
 * before), the pool, and for the UK rules the days whose 30 days are not over.
 */
export type MatcherState = LotsState | PoolState | UkState;

/** A lot: account, quantity, cost, acquired at (epoch ms; null for a pool). */
export type LotState = [string, string, string, number | null];

export interface LotsState {
  method: 'fifo' | 'hifo';
  /** fifo: oldest first; hifo: the heap's array. */
  lots: LotState[];
}

export interface PoolState {
  method: 'average';
  /** The account of the first movement (the pool's row in `lots` names it with --pool account). */
  account: string | null;
  pool: [string, string];
}

/** A movement kept: account, ts, day, kind, quantity, value, fees, trade group, flags (space-separated). */
export type EventState = [string, number, string, GainEvent['kind'], string, string, string, string | null, string];

/** A take kept: quantity, cost, acquired at, rule. */
export type TakeState = [string, string, number | null, string];

/** One UK day not yet closed (src/gains/uk-matcher.ts, UkDay). */
export interface DayState {
  day: string;
  first: number;
  acquired: [string, string, number];
  disposals: EventState[];
  removals: EventState[];
  takes: TakeState[];
  open: string;
  complete: boolean;
}

export interface UkState {
  method: 'uk';
  account: string | null;
  pool: [string, string];
  days: DayState[];
}

/** A Dec as JSON text, and back. */
export const units = (value: Dec): string => value.toString();
export const fromUnits = (text: string): Dec => BigInt(text);

export const lotState = (lot: OpenLot): LotState => [lot.account, units(lot.quantity), units(lot.cost), lot.acquiredAt];
export const lotFromState = ([account, quantity, cost, acquiredAt]: LotState): OpenLot => ({
  account,
  quantity: fromUnits(quantity),
  cost: fromUnits(cost),
  acquiredAt,
});

export const eventState = (e: GainEvent): EventState => [
  e.account,
  e.ts,
  e.day,
  e.kind,
  units(e.quantity),
  units(e.value),
  units(e.fees),
  e.tradeGroup,
  e.flags.join(' '),
];
export const eventFromState = ([
  account,
  ts,
  day,
  kind,
  quantity,
  value,
  fees,
  tradeGroup,
  flags,
]: EventState): GainEvent => ({
  account,
  ts,
  day,
  kind,
  quantity: fromUnits(quantity),
  value: fromUnits(value),
  fees: fromUnits(fees),
  tradeGroup,
  flags: flags === '' ? [] : flags.split(' '),
});

export const takeState = (t: Take): TakeState => [units(t.quantity), units(t.cost), t.acquiredAt, t.rule];
export const takeFromState = ([quantity, cost, acquiredAt, rule]: TakeState): Take => ({
  quantity: fromUnits(quantity),
  cost: fromUnits(cost),
  acquiredAt,
  rule,
});

/**
 * One pool and asset's matching: movements in, in time order; the slices final as they become so; the state to
 * keep; and at the end the slices still open to later movements (the UK rules' last 30 days) and the open lots.
 */
export interface Matcher {
  /** Takes the next movement (never earlier than the one before); returns the slices it made final. */
  feed(event: GainEvent): Slice[];
  /** What the matcher holds now, to keep: createMatcher(method, state) goes on from it. */
  state(): MatcherState;
  /**
   * Ends the matching here (call it last): the slices not final yet, as they stand with no later movement, and the
   * lots open. For the UK rules with `openAt`, those of the disposals before it and the pool open at it.
   */
  finish(openAt?: number): { slices: Slice[]; open: OpenLot[] };
}
