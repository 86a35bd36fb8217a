import type { Window } from '../time/window.js';
import { ident, literal } from '../duckdb/quote.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { Valuation } from '../warehouse/values.js';

/** An asset of the range with movements that have no value: no price for their hour, or no fiat rate. */
export interface Unpriced {
  asset: string;
  /** `usdt`: no USDT price; else the fiat with no rate. */
  missing: string;
  entries: number;
}

/**
 * Per asset, the movements of `range` (of one account, or all) without a value in USDT, or in the fiat
 * (docs/values.md). `source`: the valued ledger rows to read, lp_ledger_valued (value_fiat is the fiat's value) or a
 * table made of them (an export's, RANGE_VALUED in src/reads/range-valued.ts, or the report's).
 */
export async function readUnpriced(
  warehouse: Warehouse,
  range: Window,
  valuation: Valuation,
  account?: string,
  source = 'lp_ledger_valued',
): Promise<Unpriced[]> {
  const rows = `ts >= $from AND ts < $to${account === undefined ? '' : ` AND account = ${literal(account)}`}`;
  // One pass over the rows, both counts side by side, then one row per count: each read of the valued ledger
  // computes every row's value (docs/performance.md, "Prices").
  const counts = ['usdt', ...(valuation.fiat === null ? [] : [valuation.fiat])];
  const columns = counts.map(
    (name) => `count(*) FILTER (WHERE ${name === 'usdt' ? 'value_usdt' : 'value_fiat'} IS NULL) AS ${ident(name)}`,
  );
  const reader = await warehouse.exclusive((c) =>
    c.runAndReadAll(
      `SELECT asset, missing, n FROM (UNPIVOT (SELECT asset, ${columns.join(', ')} FROM ${source} WHERE ${rows} GROUP BY asset)
       ON ${counts.map((name) => ident(name)).join(', ')} INTO NAME missing VALUE n) WHERE n > 0 ORDER BY asset, missing`,
      { from: timestampTz(range.start), to: timestampTz(range.end) },
    ),
  );
  return reader.getRows().map((r) => ({ asset: String(r[0]), missing: String(r[1]), entries: Number(r[2]) }));
}
