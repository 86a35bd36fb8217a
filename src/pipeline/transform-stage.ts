import { OPEN_STATUSES } from '../streams/open-statuses.js';
import { runTransformStage, type TransformSummary } from '../transform/stage.js';
import { collectGarbage } from '../util/collect-garbage.js';
import { summaryMemoryBudget } from '../duckdb/memory-budget.js';
import { readNotFinal, readReconciliation, type NotFinal, type Reconciliation } from '../reads/reports.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { AccountResult } from './extract-stage.js';
import { exportPeriod, type Run } from './run.js';
import { readRunCompleteness, type RunCompleteness } from './run-completeness.js';

/** What the transform stage made, and what the summary shows of it. */
export interface Transformed {
  summary: TransformSummary;
  /** Per account of the run's options, its movements and balance snapshots by year (those with movements). */
  reconciliation: { account: string; years: Reconciliation }[];
  /** Withdrawals and deposits of the run's range not final at its end (none without a range). */
  notFinal: NotFinal[];
  /** The completeness of the run's accounts over its range, read from the views the transform made. */
  completeness: RunCompleteness | undefined;
}

/**
 * The transform (docs/transform.md), and what the summary shows of it: each account's movements by year, the records
 * not final, and the completeness. `extracted` is the extract stage's accounts, undefined when the run did not
 * extract (the transform then acts on every account the warehouse holds).
 *
 * @example
 * const transformed = await transformStage(warehouse, run, extracted?.accounts);
 */
export async function transformStage(
  warehouse: Warehouse,
  run: Run,
  extracted: readonly AccountResult[] | undefined,
): Promise<Transformed> {
  const { options } = run;
  // The transform is the run's memory peak: first drop what the extraction left dead in the JS heap.
  if (extracted !== undefined) collectGarbage();
  const summary = await runTransformStage(warehouse, options.log, { full: options.full === true });
  const accounts = extracted ?? [];
  const range = run.period?.window ?? (accounts.length > 0 ? exportPeriod(run, accounts).window : undefined);
  const { reconciliation, notFinal } = await warehouse.withMemoryLimit(summaryMemoryBudget(), async () => {
    const years: Transformed['reconciliation'] = [];
    for (const account of options.accounts) {
      const read = await readReconciliation(warehouse, account.name, run.settings);
      if (read !== undefined && read.movements.length > 0) years.push({ account: account.name, years: read });
    }
    return {
      reconciliation: years,
      notFinal: range === undefined ? [] : await readNotFinal(warehouse, range, OPEN_STATUSES),
    };
  });
  // Under the warehouse's own budget, not the summary's: the running-balance chains are windows over every record
  // that carries a balance (a busy year: 400k), beyond the summary's 64 MB.
  const completeness = await readRunCompleteness(
    warehouse,
    extracted?.map((a) => a.account),
    range,
  );
  return { summary, reconciliation, notFinal, completeness };
}
