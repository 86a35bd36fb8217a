import type { DuckDBConnection } from '@duckdb/node-api';
import type { Window } from '../time/window.js';
import { packageRoot } from '../util/package-root.js';
import { withSettings } from '../duckdb/session.js';
import { forgetParams, param, readModel, runModel, sqlGraph, withParams } from '../warehouse/sql-graph.js';
import { inRolledBackTransaction } from '../duckdb/transaction.js';
import { readRecordedVersions, releaseVersions, userCatalogFile } from '../warehouse/versions.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** Where records of one stream were loaded: the span of time they lie in. */
export interface LoadedSpan {
  stream: string;
  window: Window;
}

/** The files that make what the query reads, as the transform makes them: the type catalog, the legs' unions. */
async function madeFirst(): Promise<string[]> {
  return [...(await sqlGraph()).folder('seeds').map((f) => f.name), 'generated/models.sql'];
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
export async function bookedAssets(
  warehouse: Pick<Warehouse, 'exclusive'>,
  spans: readonly LoadedSpan[],
): Promise<string[]> {
  if (spans.length === 0) return [];
  const { typing } = await releaseVersions();
  const made = await madeFirst();
  return warehouse.exclusive(async (c) => {
    if ((await readRecordedVersions(c)).typing !== typing) return [];
    // The seeds' CSV paths are relative to ledgerpipe's folder; the user's catalog file is named by a variable.
    const catalog = { lp_user_catalog: param.text(userCatalogFile()) };
    try {
      return await withParams(c, catalog, () =>
        withSettings(c, { file_search_path: packageRoot() }, () =>
          inRolledBackTransaction(c, (t) => assetsOfSpans(t, made, spans)),
        ),
      );
    } finally {
      // A variable outlives the transaction: a transform of this process must not read it.
      await forgetParams(c).catch(() => undefined);
    }
  });
}

async function assetsOfSpans(
  c: DuckDBConnection,
  made: readonly string[],
  spans: readonly LoadedSpan[],
): Promise<string[]> {
  for (const file of made) await runModel(c, file);
  const assets = new Set<string>();
  for (const { stream, window } of spans) {
    const span = { lp_stream: stream, lp_from: param.instant(window.start), lp_to: param.instant(window.end) };
    for (const row of await withParams(c, span, () => readModel(c, 'prices/booked_assets.sql')))
      assets.add(String(row['asset']));
  }
  return [...assets].sort();
}
