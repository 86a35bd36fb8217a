import type { DuckDBConnection } from '@duckdb/node-api';
import { describeWarehouse } from './dictionary.js';
import { ident } from './quote.js';
import { readSqlFile, readSqlFolder, type SqlFile } from './sql-files.js';

/** How values are made: the fiat currency (none: USDT only), where its rates come from, and the time zone of years. */
export interface Valuation {
  fiat: string | null;
  /** `pair`: the close of the platform's USDT<fiat> candle of the hour; `file`: the user's rates (fiat_rates), as of the time. */
  fiatSource: 'pair' | 'file' | null;
  timeZone: string;
}

export const NO_VALUATION: Valuation = { fiat: null, fiatSource: null, timeZone: 'UTC' };

/** The column of the fiat value where users read it: value_eur for EUR. */
export const fiatColumn = (fiat: string): string => `value_${fiat.toLowerCase()}`;

/** The valuation the views were last made with, as the table `valuation` records it (NO_VALUATION before the first). */
export async function readValuation(c: DuckDBConnection): Promise<Valuation> {
  const row = (await c.runAndReadAll('SELECT fiat, fiat_source, time_zone FROM valuation LIMIT 1')).getRows()[0];
  if (row === undefined) return NO_VALUATION;
  return { fiat: row[0] === null ? null : String(row[0]), fiatSource: row[1] === null ? null : (String(row[1]) as 'pair' | 'file'), timeZone: String(row[2]) };
}

/**
 * The files of the views of values (README, "Values"), for the way the recorded valuation prices its fiat: the
 * USDT prices, the fiat's (none, the platform's pair, or the user's rates file), the year summaries and the tax
 * files' values. Each reads the fiat and the time zone from the table `valuation`.
 */
export async function valuesFiles(v: Pick<Valuation, 'fiatSource'>): Promise<SqlFile[]> {
  const files = await readSqlFolder('values');
  const fiat = await readSqlFile(`values/20_fiat_${v.fiatSource ?? 'none'}.sql`);
  return files.flatMap((f) => (f.name.startsWith('values/20_fiat_') ? (f.name === fiat.name ? [fiat] : []) : [f]));
}

/**
 * Makes the views of values for the valuation the warehouse records: the files of sql/values/, then the two views
 * users read with the fiat's column under its own name. The SQL models name it value_fiat; DuckDB takes a
 * column's name only from the text of a statement, and the fiat is the user's (--fiat), so these two views are
 * the one place ledgerpipe writes a view's SQL from a value: a rename of value_fiat, or without a fiat its
 * removal. Run by the transform (the views read the ledger it makes) and by every command that sets a valuation.
 */
export async function makeValueViews(c: DuckDBConnection): Promise<void> {
  const valuation = await readValuation(c);
  for (const file of await valuesFiles(valuation)) await c.run(file.text);
  const named = valuation.fiat === null ? 'EXCLUDE (value_fiat)' : `RENAME (value_fiat AS ${ident(fiatColumn(valuation.fiat))})`;
  await c.run(`CREATE OR REPLACE VIEW ledger_valued AS SELECT * ${named} FROM lp_ledger_valued`);
  await c.run(`CREATE OR REPLACE VIEW year_summary AS SELECT * ${named} FROM lp_year_summary('lp_ledger_valued')`);
}

/** Records `v` as the warehouse's valuation and makes its views, so that the next transform makes them the same. */
export async function applyValuation(c: DuckDBConnection, v: Valuation): Promise<void> {
  await c.run('DELETE FROM valuation');
  await c.run('INSERT INTO valuation VALUES ($fiat, $source, $tz)', { fiat: v.fiat, source: v.fiatSource, tz: v.timeZone });
  await makeValueViews(c);
  await describeWarehouse(c);
}
