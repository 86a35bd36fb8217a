import type { DuckDBConnection } from '@duckdb/node-api';
import { readModel, type SqlFile } from '../warehouse/sql-graph.js';
import type { Steps } from './steps.js';

/**
 * Runs every check of sql/checks/ on `c`, each timed, and returns the problems they find, one line each: a check
 * is a query whose every row is a problem (`check_name`, `problem`). Over the whole ledger after a full transform;
 * over the changed records' rows (lp_delta first on the search path) after an incremental one.
 */
export async function runChecks(c: DuckDBConnection, checks: readonly SqlFile[], steps: Steps): Promise<string[]> {
  const found: string[] = [];
  for (const check of checks) {
    const rows = await steps.time(check.name, () => readModel(c, check.name), 'checks');
    for (const row of rows) found.push(`${String(row['check_name'])}: ${String(row['problem'])}`);
  }
  return found;
}
