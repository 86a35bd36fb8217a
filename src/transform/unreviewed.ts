import type { DuckDBConnection } from '@duckdb/node-api';
import { param, readModel, withParams } from '../warehouse/sql-graph.js';
import { hasTables } from '../duckdb/tables.js';

/** A type the catalog lacks, per account, stream, field and asset (the view `unreviewed_types`). */
export interface UnreviewedType {
  account: string;
  source: string;
  field: string;
  type: string;
  asset: string;
  records: number;
  /** What its rows add up to in the ledger, an exact decimal string. */
  total: string;
}

/**
 * The types the last transform booked as unreviewed, for one account or all; none when no transform has run.
 *
 * @example
 * for (const u of await readUnreviewed(connection)) console.log(u.type, u.records, u.total);
 */
export async function readUnreviewed(connection: DuckDBConnection, account?: string): Promise<UnreviewedType[]> {
  if (!(await hasTables(connection, ['unreviewed_types']))) return [];
  const found = await withParams(connection, { lp_account: param.text(account) }, () =>
    readModel(connection, 'reads/unreviewed_types.sql'),
  );
  return found.map((r) => ({
    account: String(r['account']),
    source: String(r['source']),
    field: String(r['field']),
    type: String(r['type']),
    asset: String(r['asset']),
    records: Number(r['records']),
    total: plainDecimal(String(r['total'])),
  }));
}

/**
 * A decimal's text without trailing zeros ('-12.500000000000000000' -> '-12.5', '3.000' -> '3'): a warehouse an
 * earlier release transformed holds the total as DECIMAL(38,18) until this release's transform rewrites it.
 */
function plainDecimal(text: string): string {
  return /^-?\d+\.\d*$/.test(text) ? text.replace(/\.?0+$/, '') : text;
}
