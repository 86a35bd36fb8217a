import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBDecimalValue } from '../duckdb/duckdb.js';
import { dec, mulDiv, SCALE, ZERO, type Dec } from './decimal.js';
import type { GainEvent } from './events.js';

/** One movement as read from temp.lp_gain_event_rows (sql/gains/20_event_rows.sql), with its pool and asset. */
export interface PooledEvent {
  pool: string;
  asset: string;
  event: GainEvent;
}

/**
 * How many movements a page holds. The pages are read by their rowids (the table's order, sql/gains/20_event_rows.sql),
 * so that the connection is free between two pages for the engine's appends, and memory holds one page, not an
 * asset's history.
 */
export const PAGE_ROWS = 20_480;

/**
 * The `total` movements of temp.lp_gain_event_rows, a page at a time, in the order of pool, asset, time and entry.
 * `localDay` gives each its day (the UK rules count in Europe/London).
 *
 * @example
 * for await (const page of eventPages(c, total, localDay)) for (const { pool, asset, event } of page) ...
 */
export async function* eventPages(
  c: DuckDBConnection,
  total: number,
  localDay: (ts: number) => string,
): AsyncGenerator<PooledEvent[]> {
  for (let first = 0; first < total; first += PAGE_ROWS) {
    const reader = await c.runAndReadAll(
      `SELECT pool, asset, account, ts_ms, kind, quantity, own, other, side_value, side_legs, group_fees, trade_group, flags
       FROM temp.lp_gain_event_rows WHERE rowid >= $first AND rowid < $next ORDER BY rowid`,
      { first: BigInt(first), next: BigInt(first + PAGE_ROWS) },
    );
    yield reader
      .getRows()
      .map((r) => ({ pool: String(r[0]), asset: String(r[1]), event: eventOf(r.slice(2), localDay) }));
  }
}

/** A row of lp_gain_event_rows from its account on as the engine's movement. */
function eventOf(r: readonly unknown[], localDay: (ts: number) => string): GainEvent {
  const ts = Number(r[1]);
  const flags = String(r[10] ?? '');
  const kind = r[2] as GainEvent['kind'];
  const { value, fees } = valueAndFees(kind, {
    own: optionalDec(r[4]),
    other: optionalDec(r[5]),
    sideValue: optionalDec(r[6]),
    sideLegs: Number(r[7] ?? 1),
    groupFees: optionalDec(r[8]) ?? ZERO,
  });
  return {
    account: String(r[0]),
    ts,
    day: localDay(ts),
    kind,
    quantity: optionalDec(r[3]) ?? ZERO,
    value,
    fees,
    tradeGroup: r[9] === null ? null : String(r[9]),
    flags: flags === '' ? [] : flags.split(' '),
  };
}

/** A DECIMAL(38, 18) cell as a Dec: its scaled value is one already. */
function optionalDec(cell: unknown): Dec | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof DuckDBDecimalValue && cell.scale === SCALE) return cell.value;
  return dec(String(cell));
}

/**
 * An event's value and fees from its row of lp_gain_events: a trade leg's share of the other side's value (all
 * of it when alone on its side, else by its own value, rounded once), else its own value (0 when it has none);
 * the group's fees shared the same way, part of the cost of an acquisition.
 */
function valueAndFees(
  kind: GainEvent['kind'],
  row: { own: Dec | null; other: Dec | null; sideValue: Dec | null; sideLegs: number; groupFees: Dec },
): { value: Dec; fees: Dec } {
  const share = (total: Dec): Dec =>
    row.sideLegs <= 1
      ? total
      : row.sideValue === null || row.sideValue === ZERO
        ? ZERO
        : mulDiv(total, row.own ?? ZERO, row.sideValue);
  const value = row.other === null ? (row.own ?? ZERO) : share(row.other);
  const fees = row.groupFees === ZERO ? ZERO : share(row.groupFees);
  return kind === 'acquire' ? { value: value + fees, fees: ZERO } : { value, fees };
}
