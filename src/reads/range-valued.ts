import { withSettings } from '../duckdb/session.js';
import { dropTemporary } from '../duckdb/tables.js';
import type { Window } from '../time/window.js';
import { param, runModel, withParams } from '../warehouse/sql-graph.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * The valued ledger rows of an export's range, every account's, in the files' order (time, entry, account): a
 * temporary table of the warehouse's connection (sql/exports/ledger_valued_of_range.sql), made by withRangeValued.
 */
export const RANGE_VALUED = 'lp_export_ledger_valued';

/** The range each warehouse holds in RANGE_VALUED now: one at a time. */
const held = new WeakMap<Warehouse, Window>();

/** The range whose valued rows `warehouse` holds in RANGE_VALUED (withRangeValued), if any. */
export function rangeValuedOf(warehouse: Warehouse): Window | undefined {
  return held.get(warehouse);
}

/**
 * Refuses a read of RANGE_VALUED for a range other than the one `warehouse` holds: `whose` names the reader in the
 * error ("the export's").
 */
export function assertRangeValued(warehouse: Warehouse, range: Window, whose: string): void {
  const held = rangeValuedOf(warehouse);
  if (held?.start !== range.start || held.end !== range.end)
    throw new Error(`${whose} range is not the one whose valued rows are held (withRangeValued)`);
}

/**
 * Runs `work` with RANGE_VALUED made of `range`, then drops it. A read of the valued ledger values every row it
 * reads: over a busy year's 2.33M rows, 4 to 7 s each time, and the export stage read them five times (what has no
 * value, the findings to review, the ledger's files, the year summary, the report). Made once here, each of those
 * reads it (docs/performance.md, "Gains kept"). `budget`: the memory budget to make it at (the whole ledger's, when
 * the export's tax files take it too), else the warehouse's. A warehouse holds one range at a time: a second
 * withRangeValued inside the first is refused, as it would replace the table the first one's work reads.
 *
 * @example
 * await withRangeValued(warehouse, range, () => readUnpriced(warehouse, range, valuation, undefined, RANGE_VALUED));
 */
export async function withRangeValued<T>(
  warehouse: Warehouse,
  range: Window,
  work: () => Promise<T>,
  budget?: string,
): Promise<T> {
  if (held.has(warehouse)) throw new Error('the valued rows of a range are held already: withRangeValued nested');
  const params = { lp_from: param.instant(range.start), lp_to: param.instant(range.end) };
  // In the files' order, which the table keeps only with DuckDB's insertion order kept (the transform turns it off).
  const make = () =>
    warehouse.exclusive((c) =>
      withSettings(c, { preserve_insertion_order: true }, () =>
        withParams(c, params, () => runModel(c, 'exports/ledger_valued_of_range.sql')),
      ),
    );
  held.set(warehouse, range);
  try {
    await (budget === undefined ? make() : warehouse.withMemoryLimit(budget, make));
    return await work();
  } finally {
    held.delete(warehouse);
    // Best effort: a database DuckDB gave up on refuses it too, and that must not hide why the work failed.
    await warehouse.exclusive((c) => dropTemporary(c, [RANGE_VALUED])).catch(() => undefined);
  }
}
