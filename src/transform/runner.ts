import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckError } from '../errors/check-error.js';
import { packageRoot } from '../util/package-root.js';
import { literal } from '../warehouse/quote.js';
import { readValuation, valuationSql } from '../prices/valuation.js';
import { readSqlFolder } from '../warehouse/sql-files.js';
import { recordModelVersion } from '../warehouse/model-versions.js';
import { ensureTyped, typedVersion } from '../warehouse/typed-at-load.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The folders of `sql/` the transform runs, in order: the seeds (the type catalog), staging models, the ledger. */
export const TRANSFORM_FOLDERS = ['seeds', 'staging', 'ledger'] as const;

export interface TransformReport {
  /** Each SQL file run, with how long it took. */
  files: { name: string; ms: number }[];
  /** Each check run, with how long it took; all passed, or the transform would have thrown. */
  checks: { name: string; ms: number }[];
  /** The version of the type catalog the ledger was booked with (catalogVersion). */
  catalogVersion: string;
}

/**
 * The version of the type catalog: the SHA-256 of the seed files (`sql/seeds/*.csv`) one after another in name
 * order, so that `cat sql/seeds/*.csv | sha256sum` prints it too. Recorded in `model_versions` by every transform.
 *
 * @example
 * await catalogVersion() // => 'c0ffee...' (64 hex digits)
 */
export async function catalogVersion(): Promise<string> {
  const dir = join(packageRoot(), 'sql', 'seeds');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.csv')).sort();
  const hash = createHash('sha256');
  for (const name of names) hash.update(await readFile(join(dir, name)));
  return hash.digest('hex');
}

/**
 * Rebuilds the typed tables and the ledger from `raw_records` by running the SQL files of `sql/seeds/`,
 * `sql/staging/` and `sql/ledger/` in name order, then the checks of `sql/checks/`, all in one transaction:
 * idempotent, and rolled back whole (keeping the previous tables) when a file fails or a check finds a problem.
 * The seeds are read relative to ledgerpipe's folder (DuckDB's file_search_path, set for the transform only).
 *
 * @example
 * const report = await runTransforms(warehouse);
 * for (const f of report.files) log.info(`${f.name} ${f.ms} ms`);
 */
export async function runTransforms(
  warehouse: Pick<Warehouse, 'transaction'>,
  clock: () => number = () => performance.now(),
  now: () => number = Date.now,
): Promise<TransformReport> {
  const files = (await Promise.all(TRANSFORM_FOLDERS.map((f) => readSqlFolder(f)))).flat();
  const checks = await readSqlFolder('checks');
  const version = await catalogVersion();
  const typed = await typedVersion();
  return warehouse.transaction(async (connection) => {
    const report: TransformReport = { files: [], checks: [], catalogVersion: version };
    const started = clock();
    const retyped = await ensureTyped(connection, typed, now());
    if (retyped.length > 0) report.files.push({ name: `typed again: ${retyped.join(', ')}`, ms: Math.round(clock() - started) });
    await connection.run(`SET file_search_path = ${literal(packageRoot())}`);
    try {
      for (const file of files) {
        const started = clock();
        await connection.run(file.text);
        report.files.push({ name: file.name, ms: Math.round(clock() - started) });
      }
    } finally {
      await connection.run('RESET file_search_path');
    }
    // The views of values, with the fiat and time zone they were last made with (README, "Values").
    await connection.run(valuationSql(await readValuation(connection)));
    const problems: string[] = [];
    for (const check of checks) {
      const started = clock();
      const rows = (await connection.runAndReadAll(check.text)).getRowObjectsJS();
      report.checks.push({ name: check.name, ms: Math.round(clock() - started) });
      for (const row of rows) problems.push(`${String(row['check_name'])}: ${String(row['problem'])}`);
    }
    if (problems.length > 0) throw new CheckError(problems);
    await recordModelVersion(connection, 'type_catalog', version, now());
    return report;
  });
}
