import { CheckError } from '../errors/check-error.js';
import { readSqlFolder } from '../warehouse/sql-files.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The folders of `sql/` the transform runs, in order: staging models, then the ledger. */
export const TRANSFORM_FOLDERS = ['staging', 'ledger'] as const;

export interface TransformReport {
  /** Each SQL file run, with how long it took. */
  files: { name: string; ms: number }[];
  /** Each check run, with how long it took; all passed, or the transform would have thrown. */
  checks: { name: string; ms: number }[];
}

/**
 * Rebuilds the typed tables and the ledger from `raw_records` by running the SQL files of `sql/staging/` and
 * `sql/ledger/` in name order, then the checks of `sql/checks/`, all in one transaction: idempotent, and
 * rolled back whole (keeping the previous tables) when a file fails or a check finds a problem.
 *
 * @example
 * const report = await runTransforms(warehouse);
 * for (const f of report.files) log.info(`${f.name} ${f.ms} ms`);
 */
export async function runTransforms(warehouse: Pick<Warehouse, 'transaction'>, clock: () => number = () => performance.now()): Promise<TransformReport> {
  const files = (await Promise.all(TRANSFORM_FOLDERS.map((f) => readSqlFolder(f)))).flat();
  const checks = await readSqlFolder('checks');
  return warehouse.transaction(async (connection) => {
    const report: TransformReport = { files: [], checks: [] };
    for (const file of files) {
      const started = clock();
      await connection.run(file.text);
      report.files.push({ name: file.name, ms: Math.round(clock() - started) });
    }
    const problems: string[] = [];
    for (const check of checks) {
      const started = clock();
      const rows = (await connection.runAndReadAll(check.text)).getRowObjectsJS();
      report.checks.push({ name: check.name, ms: Math.round(clock() - started) });
      for (const row of rows) problems.push(`${String(row['check_name'])}: ${String(row['problem'])}`);
    }
    if (problems.length > 0) throw new CheckError(problems);
    return report;
  });
}
