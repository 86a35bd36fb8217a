import type { Window } from '../time/window.js';
import { param, readModel, withParams } from '../warehouse/sql-graph.js';
import { hasTables } from '../duckdb/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { assertRangeValued } from './range-valued.js';

/** One movement far outside the account's scale (view plausibility; docs/review.md). */
export interface Implausible {
  account: string;
  asset: string;
  ts: number;
  source: string;
  sourceId: string;
  finding: 'fee_above_1pct' | 'income_above_holdings' | 'refund_above_fees';
  amount: string;
  valueUsdt: string | null;
  comparedWith: string | null;
  comparedAs: string;
}

/**
 * The movements of `range` the view plausibility lists for review (of one account, or all), largest value first:
 * read through lp_plausibility_of (sql/values/60_plausibility.sql), which values only what the range's findings
 * are set beside, not the whole ledger, over the valued rows of `range` the caller holds (withRangeValued): the
 * macro reads them several times, so they are a table, not rows valued anew at each read.
 *
 * @example
 * const review = await withRangeValued(warehouse, range, () => readPlausibility(warehouse, range)); // [] when none
 */
export async function readPlausibility(warehouse: Warehouse, range: Window, account?: string): Promise<Implausible[]> {
  assertRangeValued(warehouse, range, "the findings'");
  return warehouse.exclusive(async (c) => {
    if (!(await hasTables(c, ['plausibility']))) return [];
    const params = {
      lp_from: param.instant(range.start),
      lp_to: param.instant(range.end),
      lp_account: param.text(account),
    };
    const found = await withParams(c, params, () => readModel(c, 'reads/plausibility_of_range.sql'));
    return found.map((r) => ({
      account: String(r['account']),
      asset: String(r['asset']),
      ts: Number(r['ms']),
      source: String(r['source']),
      sourceId: String(r['source_id']),
      finding: String(r['finding']) as Implausible['finding'],
      amount: String(r['amount']),
      valueUsdt: r['value_usdt'] === null ? null : String(r['value_usdt']),
      comparedWith: r['compared_with'] === null ? null : String(r['compared_with']),
      comparedAs: String(r['compared_as']),
    }));
  });
}
