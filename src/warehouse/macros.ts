import type { DuckDBConnection } from '@duckdb/node-api';
import { openingFiles } from './sql-files.js';

/**
 * Creates the SQL helpers of `sql/macros/` (lp_amount, lp_total, lp_csv_text...) and the macros of the stream
 * models typed at load (sql/models/) in the warehouse, as every opening does: a command never meets a warehouse without the helpers of its own release, whatever release
 * wrote the file. On a read-only warehouse they are temporary, this session's own.
 */
export async function createMacros(connection: DuckDBConnection, options: { temporary: boolean }): Promise<void> {
  for (const file of await openingFiles()) {
    await connection.run(options.temporary ? file.text.replaceAll('CREATE OR REPLACE MACRO', 'CREATE OR REPLACE TEMP MACRO') : file.text);
  }
}
