import type { Logger } from '../log/logger.js';
import { runTransforms, type TransformReport } from '../transform/runner.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface TransformSummary {
  report: TransformReport;
  /** Rows per typed table. */
  rows: Record<string, number>;
  /** Ledger totals per account, asset and category, amounts as exact decimal strings. */
  totals: { account: string; asset: string; category: string; entries: number; amount: string }[];
  /** marginTaxType values the ledger does not know: kept as category 'unknown'. */
  unknownMarginTypes: { type: string; records: number }[];
}

export const TYPED_TABLES = [
  'margin_records',
  'futures_fills',
  'futures_fill_fees',
  'withdrawals',
  'p2p_advertisements',
  'deposits',
  'futures_tax_records',
  'spot_tax_records',
  'p2p_tax_records',
  'account_balances',
  'ledger',
] as const;

/**
 * Runs the transforms and reads what the run summary shows: rows per table, ledger totals per asset and
 * category, and any margin record type the ledger had to keep as `unknown`.
 */
export async function runTransformStage(warehouse: Warehouse, log: Logger): Promise<TransformSummary> {
  const report = await runTransforms(warehouse);
  const steps = [...report.files, ...report.checks];
  log.info(`transform: ${steps.reduce((n, f) => n + f.ms, 0)} ms: ${steps.map((f) => `${f.name} ${f.ms} ms`).join(', ')}`);
  return warehouse.exclusive(async (c) => {
    const counts = await c.runAndReadAll(TYPED_TABLES.map((t) => `SELECT '${t}' AS name, count(*) AS n FROM ${t}`).join(' UNION ALL '));
    const rows = Object.fromEntries(counts.getRowObjectsJS().map((r) => [String(r['name']), Number(r['n'])]));
    const totals = (
      await c.runAndReadAll(
        `SELECT account, asset, category, count(*) AS entries, lp_decimal_text(sum(amount)) AS amount
         FROM ledger GROUP BY ALL ORDER BY account, asset, category`,
      )
    )
      .getRowObjectsJS()
      .map((r) => ({ account: String(r['account']), asset: String(r['asset']), category: String(r['category']), entries: Number(r['entries']), amount: String(r['amount']) }));
    const unknownMarginTypes = (
      await c.runAndReadAll(
        `SELECT margin_tax_type AS type, count(*) AS records FROM margin_records ANTI JOIN margin_tax_types USING (margin_tax_type)
         GROUP BY ALL ORDER BY 1`,
      )
    )
      .getRowObjectsJS()
      .map((r) => ({ type: String(r['type']), records: Number(r['records']) }));
    for (const u of unknownMarginTypes) {
      log.warn(`margin records of type "${u.type}" are not in ledgerpipe's mapping; ${u.records} kept in the ledger as category "unknown" with the amount as given`);
    }
    return { report, rows, totals, unknownMarginTypes };
  });
}

/** The summary printed on stdout after a transform: rows per table, then ledger totals. */
export function transformSummaryLines(summary: TransformSummary): string[] {
  const lines = ['table                 rows'];
  for (const [name, n] of Object.entries(summary.rows)) lines.push(`${name.padEnd(20)} ${String(n).padStart(9)}`);
  lines.push('', 'account      asset     category            entries  total');
  for (const t of summary.totals) {
    lines.push(`${t.account.padEnd(12)} ${t.asset.padEnd(9)} ${t.category.padEnd(18)} ${String(t.entries).padStart(8)}  ${t.amount}`);
  }
  return lines;
}
