import type { Dec } from './decimal.js';

/** One movement of an asset the engine matches, in time order (sql/gains/10_gain_events.sql makes them). */
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
