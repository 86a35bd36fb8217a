import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { ident, literal } from '../warehouse/quote.js';

/** How values are made: the fiat currency (none: USDT only), where its rates come from, and the time zone of years. */
export interface Valuation {
  fiat: string | null;
  /** `pair`: the close of the platform's USDT<fiat> candle of the hour; `file`: the user's rates (fiat_rates), as of the time. */
  fiatSource: 'pair' | 'file' | null;
  timeZone: string;
}

export const NO_VALUATION: Valuation = { fiat: null, fiatSource: null, timeZone: 'UTC' };

/** A fiat code as --fiat takes it: three to five capital letters (EUR, GBP, USD). */
export function parseFiat(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  const fiat = text.trim().toUpperCase();
  if (!/^[A-Z]{3,5}$/.test(fiat)) throw new UsageError(`--fiat ${text} is not a currency code; give one such as EUR, GBP or USD`);
  if (fiat === 'USDT') throw new UsageError('--fiat USDT: values are always given in USDT (value_usdt); give a fiat currency such as EUR');
  return fiat;
}

/** The column of the fiat value: value_eur for EUR. */
export const fiatColumn = (fiat: string): string => `value_${fiat.toLowerCase()}`;

/** The SQL of the fiat value of a ledger_priced row `p`, with its join: the fiat itself is worth its amount. */
function fiatValue(v: Valuation): { select: string; join: string } {
  if (v.fiat === null) return { select: '', join: '' };
  const value = `CASE WHEN p.asset = ${literal(v.fiat)} THEN p.amount ELSE lp_mul(p.value_usdt, r.rate) END AS ${ident(fiatColumn(v.fiat))}`;
  const join =
    v.fiatSource === 'file'
      ? `ASOF LEFT JOIN (SELECT ts, rate FROM fiat_rates WHERE fiat = ${literal(v.fiat)}) AS r ON p.ts >= r.ts`
      : `LEFT JOIN (SELECT ts, close AS rate FROM price_candles WHERE symbol = ${literal(`USDT${v.fiat}`)} AND granularity = '1h') AS r ON r.ts = lp_hour(p.ts)`;
  return { select: `, ${value}`, join };
}

/**
 * The views of values (README, "Values"), for one fiat and time zone: `ledger_valued` (ledger_priced and the
 * fiat value) and `year_summary` (per account, asset, tax class and year in the time zone: amount, values, how
 * many entries, how many unpriced). A value total is NULL when any of its rows has no value: a partial sum is never
 * shown as a total. Totals are exact decimal text (lp_total): a year's total may pass what DECIMAL(38,18) holds.
 * `where` limits the rows summed (the export's range); `source` is the valued ledger rows it reads, ledger_valued
 * or a table made of them (the report's).
 */
export function yearSummarySelect(v: Valuation, where = 'true', source = 'ledger_valued'): string {
  const fiat = v.fiat === null ? '' : `, CASE WHEN count(*) FILTER (WHERE ${ident(fiatColumn(v.fiat))} IS NULL) = 0 THEN lp_total(${ident(fiatColumn(v.fiat))}) END AS ${ident(fiatColumn(v.fiat))}`;
  return `SELECT
  l.account, l.asset, m.tax_class, lp_total(l.amount) AS amount,
  CASE WHEN count(*) FILTER (WHERE l.value_usdt IS NULL) = 0 THEN lp_total(l.value_usdt) END AS value_usdt${fiat},
  CAST(year(timezone(${literal(v.timeZone)}, l.ts)) AS INTEGER) AS year,
  CAST(count(*) AS INTEGER) AS entries,
  CAST(count(*) FILTER (WHERE l.value_usdt IS NULL) AS INTEGER) AS unpriced_entries
FROM ${source} AS l
JOIN category_meaning AS m USING (category)
WHERE ${where}
GROUP BY l.account, l.asset, m.tax_class, year
ORDER BY l.account, year, l.asset, m.tax_class`;
}

/**
 * The values of each tax-file row (sql/exports/), in the fiat; NULL without a fiat or when a value is missing.
 * Koinly's Net Worth: the value of what the row received (the sum over its entries that came in), else of the
 * entry it stands for. CoinTracking's Buy and Sell values: the value of each side, the signed sum over the row's
 * entries in that side's asset, which is what the side's amount is (the received legs less a fee in that coin,
 * the sent legs and a fee in theirs). `rows` is the relation of tax-file rows they are of: the view
 * tax_export_rows, or an export's own table of its range (src/export/exporter.ts).
 */
export function taxRowValuesSelect(v: Valuation, rows = 'tax_export_rows'): string {
  const columns = ['net_worth', 'buy_value', 'sell_value'].map((c) => `CAST(NULL AS DECIMAL(38, 18)) AS ${c}`).join(', ');
  // Empty without a fiat: the tax files then join nothing, at no cost.
  if (v.fiat === null) return `SELECT CAST(NULL AS VARCHAR) AS account, CAST(NULL AS VARCHAR) AS row_id, ${columns}, CAST(NULL AS VARCHAR) AS currency WHERE false`;
  const value = `l.${ident(fiatColumn(v.fiat))}`;
  /** The sum of the values of the row's entries that `where` picks; NULL when any of them has no value. */
  const total = (where: string) => `CASE WHEN count(*) FILTER (WHERE ${where} AND ${value} IS NULL) = 0 THEN sum(${value}) FILTER (WHERE ${where}) END`;
  return `SELECT t.account, t.row_id,
  CASE WHEN count(*) FILTER (WHERE l.amount > 0) > 0 THEN ${total('l.amount > 0')}
    ELSE abs(any_value(${value}) FILTER (WHERE l.entry_id = t.row_id)) END AS net_worth,
  ${total('l.asset = t.buy_asset')} AS buy_value,
  -${total('l.asset = t.sell_asset')} AS sell_value,
  ${literal(v.fiat)} AS currency
FROM (SELECT account, row_id, cointracking_buy_asset AS buy_asset, cointracking_sell_asset AS sell_asset, unnest(entries) AS entry_id FROM ${rows}) AS t
JOIN ledger_valued AS l ON l.account = t.account AND l.entry_id = t.entry_id
GROUP BY t.account, t.row_id`;
}

export function valuationSql(v: Valuation): string {
  const { select, join } = fiatValue(v);
  return `CREATE OR REPLACE VIEW ledger_valued AS SELECT p.*${select} FROM ledger_priced AS p ${join};
CREATE OR REPLACE VIEW year_summary AS ${yearSummarySelect(v)};
CREATE OR REPLACE VIEW tax_row_values AS ${taxRowValuesSelect(v)};`;
}

/** The valuation the views were last made with (NO_VALUATION before the first). */
export async function readValuation(c: DuckDBConnection): Promise<Valuation> {
  const row = (await c.runAndReadAll('SELECT fiat, fiat_source, time_zone FROM valuation LIMIT 1')).getRows()[0];
  if (row === undefined) return NO_VALUATION;
  return { fiat: row[0] === null ? null : String(row[0]), fiatSource: row[1] === null ? null : (String(row[1]) as 'pair' | 'file'), timeZone: String(row[2]) };
}

/** Makes the views of `v` and records it, so that the next transform makes them the same. */
export async function applyValuation(c: DuckDBConnection, v: Valuation): Promise<void> {
  await c.run(valuationSql(v));
  await c.run('DELETE FROM valuation');
  await c.run('INSERT INTO valuation VALUES ($fiat, $source, $tz)', { fiat: v.fiat, source: v.fiatSource, tz: v.timeZone });
}
