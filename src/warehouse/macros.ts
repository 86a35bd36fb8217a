import type { DuckDBConnection } from '@duckdb/node-api';
import { openingFiles, readSqlFolder } from './sql-files.js';

/**
 * Creates the SQL helpers of `sql/macros/` (lp_amount, lp_total, lp_csv_text...), or with `models` every macro a
 * warehouse holds whenever it is open (openingFiles: the helpers, then the typing and legs of each stream typed at
 * load, which read the typed tables), as every opening does: a command never meets a warehouse without the
 * macros of its own release, whatever release wrote the file. On a read-only warehouse they are temporary, this
 * session's own.
 */
export async function createMacros(connection: DuckDBConnection, options: { temporary: boolean; models?: boolean }): Promise<void> {
  const files = options.models === true ? await openingFiles() : await readSqlFolder('macros');
  // In one transaction: each statement alone would write DuckDB's log (WAL) once, and opening took twice as long.
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const file of files) await connection.run(options.temporary ? file.text.replaceAll('CREATE OR REPLACE MACRO', 'CREATE OR REPLACE TEMP MACRO') : file.text);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
