import type { DuckDBConnection } from '@duckdb/node-api';
import type { Window } from '../time/window.js';
import { packageRoot } from '../util/package-root.js';
import { withSettings } from '../warehouse/session.js';
import { readSqlFile, readSqlFolder, type SqlFile } from '../warehouse/sql-files.js';
import { timestampTz } from '../warehouse/time-values.js';
import { inRolledBackTransaction } from '../warehouse/transaction.js';
import { readRecordedVersions, releaseVersions, userCatalogFile } from '../warehouse/versions.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** Where records of one stream were loaded: the span of time they lie in. */
export interface LoadedSpan {
  stream: string;
  window: Window;
}

/** The files that make what the query reads, as the transform makes them: the type catalog, the legs' unions. */
async function madeFirst(): Promise<SqlFile[]> {
  return [...(await readSqlFolder('seeds')), await readSqlFile('generated/models.sql')];
}

/**
 * The assets the next transform's ledger books from the records already typed in each span (docs/values.md,
 * "Where prices come from"): read while records are still loading, so that their candles are read beside the
 * extraction. Every asset returned is one the ledger will move in the span, never one it will not: the legs and
 * the catalog's rule are the ledger's own (sql/prices/booked_assets.sql), over the rows the raw writer typed with
 * this release's typing (a warehouse typed by another release is typed again by the transform: nothing is looked
 * at). The catalog is the one the transform books with, made the same way (the package's seeds and the user's
 * catalog file), in a transaction that is rolled back: the warehouse keeps nothing of it.
 *
 * @example
 * await bookedAssets(warehouse, [{ stream: 'futures_fills', window: { start, end } }]); // ['BGB', 'USDT']
 */
export async function bookedAssets(warehouse: Pick<Warehouse, 'exclusive'>, spans: readonly LoadedSpan[]): Promise<string[]> {
  if (spans.length === 0) return [];
  const { typing } = await releaseVersions();
  const made = await madeFirst();
  const query = await readSqlFile('prices/booked_assets.sql');
  return warehouse.exclusive(async (c) => {
    if ((await readRecordedVersions(c)).typing !== typing) return [];
    // The seeds' CSV paths are relative to ledgerpipe's folder; the user's catalog file is named by a variable.
    const yours = userCatalogFile();
    if (yours !== undefined) await c.run('SET VARIABLE lp_user_catalog = $path', { path: yours });
    try {
      return await withSettings(c, { file_search_path: packageRoot() }, () => inRolledBackTransaction(c, (t) => assetsOfSpans(t, made, query, spans)));
    } finally {
      // A variable outlives the transaction: a transform of this process must not read these.
      for (const name of ['lp_user_catalog', 'lp_stream', 'lp_from', 'lp_to']) await c.run(`RESET VARIABLE ${name}`).catch(() => undefined);
    }
  });
}

async function assetsOfSpans(c: DuckDBConnection, made: readonly SqlFile[], query: SqlFile, spans: readonly LoadedSpan[]): Promise<string[]> {
  for (const file of made) await c.run(file.text);
  const assets = new Set<string>();
  for (const { stream, window } of spans) {
    await c.run('SET VARIABLE lp_stream = $stream', { stream });
    await c.run('SET VARIABLE lp_from = $from', { from: timestampTz(window.start) });
    await c.run('SET VARIABLE lp_to = $to', { to: timestampTz(window.end) });
    for (const row of (await c.runAndReadAll(query.text)).getRows()) assets.add(String(row[0]));
  }
  return [...assets].sort();
}
