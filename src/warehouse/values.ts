import type { DuckDBConnection } from '@duckdb/node-api';
import { describeWarehouse } from './dictionary.js';
import type { FiatSource } from '../tables/settings.js';
import { ident, literal } from '../duckdb/quote.js';
import { runModel, sqlGraph, type SqlFile } from './sql-graph.js';

/** How values are made: the fiat currency (none: USDT only), where its rates come from, and the time zone of years. */
export interface Valuation {
  fiat: string | null;
  /**
   * `pair`: the close of the platform's USDT<fiat> candle of the hour; `file`: the user's rates (fiat_rates), as of the
   * time.
   */
  fiatSource: FiatSource | null;
  timeZone: string;
}

export const NO_VALUATION: Valuation = { fiat: null, fiatSource: null, timeZone: 'UTC' };

/** The column of the fiat value where users read it: value_eur for EUR. */
export const fiatColumn = (fiat: string): string => `value_${fiat.toLowerCase()}`;

/** The valuation the views were last made with, as the table `valuation` records it (NO_VALUATION before the first). */
export async function readValuation(c: DuckDBConnection): Promise<Valuation> {
  const row = (await c.runAndReadAll('SELECT fiat, fiat_source, time_zone FROM valuation LIMIT 1')).getRows()[0];
  if (row === undefined) return NO_VALUATION;
  return {
    fiat: row[0] === null ? null : String(row[0]),
    fiatSource: row[1] === null ? null : (String(row[1]) as FiatSource),
    timeZone: String(row[2]),
  };
}

/**
 * The files of the views of values (docs/values.md), for the way the recorded valuation prices its fiat: the
 * USDT prices, the fiat's (none, the platform's pair, or the user's rates file), the year summaries and the tax
 * files' values. Each reads the fiat and the time zone from the table `valuation`.
 */
export async function valuesFiles(v: Pick<Valuation, 'fiatSource'>): Promise<SqlFile[]> {
  const fiat = `values/20_fiat_${v.fiatSource ?? 'none'}.sql`;
  return (await sqlGraph()).folder('values').filter((f) => !f.name.startsWith('values/20_fiat_') || f.name === fiat);
}

/**
 * The valuation whose views each connection made last. A `run` applies one valuation up to three times (the
 * transform, the prices stage, the export); the views read the tables they name when queried, so the same
 * valuation made again in one session changes nothing and is skipped. A rolled-back transaction leaves the views
 * of the last commit, made for the valuation the table still records.
 */
const viewsMade = new WeakMap<DuckDBConnection, string>();
const valuationKey = (v: Valuation): string => JSON.stringify([v.fiat, v.fiatSource, v.timeZone]);

/**
 * Makes the views of values for the valuation the warehouse records: its fiat and time zone as two macros that
 * the files of sql/values/ read, then those files, then the three views users read with the fiat's column under its
 * own name (ledger_valued, year_summary, holdings). The one place ledgerpipe writes SQL from values (the user's
 * --fiat and --tz), each through the quoting helpers, for two reasons of DuckDB's: it names a column only from a
 * statement's text (value_eur), and it reads a time zone fast only as a constant of the statement (a year summary
 * of 1M fills took 7.7 s with the zone read from the table valuation, 0.8 s with the constant a macro expands to).
 * Run by the transform (the views read the ledger it makes) and by every command that sets a valuation.
 */
export async function makeValueViews(c: DuckDBConnection): Promise<void> {
  const valuation = await readValuation(c);
  await c.run(
    `CREATE OR REPLACE MACRO lp_valuation_fiat() AS CAST(${valuation.fiat === null ? 'NULL' : literal(valuation.fiat)} AS VARCHAR)`,
  );
  await c.run(`CREATE OR REPLACE MACRO lp_valuation_time_zone() AS ${literal(valuation.timeZone)}`);
  for (const file of await valuesFiles(valuation)) await runModel(c, file.name);
  const named =
    valuation.fiat === null ? 'EXCLUDE (value_fiat)' : `RENAME (value_fiat AS ${ident(fiatColumn(valuation.fiat))})`;
  // ledger_valued is its files' rows (sql/values/35_ledger_valued_rows.sql), tax class and all: the view and
  // ledger_valued.csv cannot differ.
  await c.run(`CREATE OR REPLACE VIEW ledger_valued AS SELECT * ${named} FROM lp_ledger_valued_rows()`);
  await c.run(
    `CREATE OR REPLACE VIEW year_summary AS SELECT * ${named} FROM lp_year_summary_decimal('lp_ledger_valued')`,
  );
  await c.run(`CREATE OR REPLACE VIEW holdings AS SELECT * ${named} FROM lp_holdings_valued`);
  viewsMade.set(c, valuationKey(valuation));
}

/** Records `v` as the warehouse's valuation and makes its views, so that the next transform makes them the same. */
export async function applyValuation(c: DuckDBConnection, v: Valuation): Promise<void> {
  if (viewsMade.get(c) === valuationKey(v)) return;
  await c.run('DELETE FROM valuation');
  await c.run('INSERT INTO valuation VALUES ($fiat, $source, $tz)', {
    fiat: v.fiat,
    source: v.fiatSource,
    tz: v.timeZone,
  });
  await makeValueViews(c);
  await describeWarehouse(c);
}
