import type { Logger } from '../util/logger.js';
import { STREAMS } from '../streams/index.js';
import { TRANSFORMED_TABLES } from '../tables/index.js';
import { readmitQuarantined, type Readmitted } from './readmit.js';
import { runTransforms, type TransformReport } from './runner.js';
import { readUnreviewed, type UnreviewedType } from './unreviewed.js';
import { summaryMemoryBudget } from '../duckdb/memory-budget.js';
import { readModel } from '../warehouse/sql-graph.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface TransformSummary {
  report: TransformReport;
  /** Rows per model the transform makes (TRANSFORMED_MODELS). */
  rows: Record<string, number>;
  /** Ledger totals per account, asset and category, amounts as exact decimal strings. */
  totals: { account: string; asset: string; category: string; entries: number; amount: string }[];
  /** Types the catalog lacks, booked as unreviewed. */
  unreviewed: UnreviewedType[];
  /** Quarantined records this release accepts, moved back before the transform, per stream. */
  readmitted: Readmitted;
}

/**
 * Re-admits the quarantined records this release accepts, runs the transforms, and reads what the run summary
 * shows: rows per table, ledger totals per asset and category, and the types the catalog lacks.
 */
export async function runTransformStage(
  warehouse: Warehouse,
  log: Logger,
  options: { full?: boolean } = {},
): Promise<TransformSummary> {
  const readmitted = await readmitQuarantined(warehouse, STREAMS);
  for (const [stream, n] of Object.entries(readmitted)) {
    log.info(
      `${stream}: ${n} quarantined record${n === 1 ? '' : 's'} this release can read moved back into the warehouse`,
    );
  }
  const report = await runTransforms(warehouse, options);
  const steps = [...report.files, ...report.checks];
  const mode = report.mode.full
    ? `whole (${report.mode.why})`
    : `${report.mode.update.changed} records loaded since the last, ${report.mode.update.rebooked} rebooked, ledger rows ${report.mode.update.deleted} out and ${report.mode.update.inserted} in`;
  log.info(`transform, ${mode}: ${steps.reduce((n, f) => n + f.ms, 0)} ms`);
  log.debug(`transform steps: ${steps.map((f) => `${f.name} ${f.ms} ms`).join(', ')}`);
  // The summary reads the whole ledger: within a budget of its own (summaryMemoryBudget).
  return warehouse.withMemoryLimit(summaryMemoryBudget(), () =>
    warehouse.exclusive(async (c) => {
      const counts = await c.runAndReadAll(
        TRANSFORMED_TABLES.map(({ name }) => `SELECT '${name}' AS name, count(*) AS n FROM ${name}`).join(
          ' UNION ALL ',
        ),
      );
      const rows = Object.fromEntries(counts.getRowObjectsJS().map((r) => [String(r['name']), Number(r['n'])]));
      const totals = (await readModel(c, 'reads/ledger_totals.sql')).map((r) => ({
        account: String(r['account']),
        asset: String(r['asset']),
        category: String(r['category']),
        entries: Number(r['entries']),
        amount: String(r['amount']),
      }));
      const unreviewed = await readUnreviewed(c);
      // One warning, however many: the summary and status list each type.
      const types = new Set(unreviewed.map((u) => `${u.source} ${u.field} ${u.type}`)).size;
      if (types > 0)
        log.warn(
          `${types} type${types === 1 ? '' : 's'} not in the type catalog booked as unreviewed; ledgerpipe status lists them; review each (docs/ledger.md, "Adding a type")`,
        );
      return { report, rows, totals, unreviewed, readmitted };
    }),
  );
}
