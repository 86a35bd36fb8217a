import type { DuckDBConnection } from '@duckdb/node-api';
import { hasTables } from '../duckdb/tables.js';

/**
 * The version of what the engine computes: kept states and slices of another are computed again from the first
 * movement. Raise it with any change to the matching, the movements (sql/gains/) or the tables' rows.
 */
export const KEPT_ENGINE = 'gains-1';

/** What a computation's result depends on besides the ledger's rows and their prices. */
export interface FingerprintInputs {
  costBasis: string;
  pool: string;
  taxYearStart: string;
  withdrawals: string;
  /** The time zone of the tables' dates (the UK rules: Europe/London, also their days'). */
  timeZone: string;
  /** The gains' unit: the fiat, else USDT. */
  unit: string;
}

// Digests of the small tables the movements and their values read, each in a fixed order: the opening lots (in
// the order they are given, which orders lots of one instant), the price routes and the fiat's rates from a file,
// and where the fiat's values come from.
const DIGESTS = `SELECT
  (SELECT md5(coalesce(string_agg(concat_ws('|', account, asset, quantity, cost, currency, epoch_ms(acquired_at)), ';' ORDER BY rowid), '')) FROM opening_lots),
  (SELECT md5(coalesce(string_agg(concat_ws('|', asset, symbol, via), ';' ORDER BY asset), '')) FROM price_routes),
  (SELECT md5(coalesce(string_agg(concat_ws('|', fiat, epoch_ms(ts), rate), ';' ORDER BY fiat, ts), '')) FROM fiat_rates),
  (SELECT coalesce(any_value(concat_ws('|', fiat, fiat_source)), '') FROM valuation)`;

// The tax class of each category (category_meaning, made by the transform from the type catalog and the user's).
const MEANINGS = `SELECT md5(coalesce(string_agg(concat_ws('|', category, tax_class), ';' ORDER BY category), '')) FROM category_meaning`;

/**
 * The fingerprint of a computation's inputs (docs/gains.md, "Kept, not recomputed"): the engine's version, the
 * settings that matter (cost basis, pool, tax-year start, withdrawals, time zone, unit) and digests of the opening
 * lots, the catalog's meanings, the price routes, the fiat's rates and source. A computation kept under another
 * fingerprint is not gone on from.
 *
 * @example
 * const fp = await gainsFingerprint(c, { costBasis: 'fifo', pool: 'account', taxYearStart: '01-01', withdrawals: 'transfer', timeZone: 'UTC', unit: 'EUR' });
 */
export async function gainsFingerprint(c: DuckDBConnection, inputs: FingerprintInputs): Promise<string> {
  const digests = (await c.runAndReadAll(DIGESTS)).getRows()[0]?.map(String) ?? [];
  const meanings = (await hasTables(c, ['category_meaning']))
    ? String((await c.runAndReadAll(MEANINGS)).getRows()[0]?.[0])
    : '';
  return JSON.stringify({ engine: KEPT_ENGINE, ...inputs, digests, meanings });
}
