import type { DuckDBConnection } from '@duckdb/node-api';
import { openingFiles } from './sql-files.js';
import { sqlGraph } from './sql-graph.js';

/**
 * Creates the SQL helpers of `sql/macros/` (lp_amount, lp_total, lp_csv_text...), or with `opening` every macro a
 * warehouse holds whenever it is open (openingFiles: the helpers, then the typing and legs of each stream typed at
 * load, which read the typed tables): a command never meets a warehouse without the macros of its own release,
 * whatever release wrote the file (bringOpeningUpToDate in warehouse.ts). On a warehouse opened read-only (status,
 * maybe while another process holds it) they are `temporary`, this session's own.
 */
export async function createMacros(
  connection: DuckDBConnection,
  options: { opening?: boolean; temporary?: boolean } = {},
): Promise<void> {
  for (const file of options.opening === true ? await openingFiles() : (await sqlGraph()).folder('macros')) {
    await connection.run(
      options.temporary === true
        ? file.text.replaceAll('CREATE OR REPLACE MACRO', 'CREATE OR REPLACE TEMP MACRO')
        : file.text,
    );
  }
}
