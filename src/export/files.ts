import { EXPORTED_TABLES } from '../tables/index.js';
import { MANIFEST } from './manifest.js';

/**
 * The names of the files an export writes (docs/files.md), from the registry of tables: the exporter writes
 * them, the recovery of a killed export and the move of an earlier release's set look for them, and `--help`
 * lists them. No DuckDB here: the help loads this.
 */

/** The report's file (src/report/report.ts, loaded only when one is written). */
export const REPORT = 'report.html';

/** The ledger with prices, values and tax class (sql/values/35_ledger_valued_rows.sql). */
export const LEDGER_VALUED = 'ledger_valued';

/** The per-asset summary (docs/values.md). */
export const YEAR_SUMMARY = 'year_summary';

/** The slices of realized gains (docs/gains.md), written when the export has computed them, as it always does. */
export const DISPOSALS = 'disposals';

/** The tables written as `<name>.csv` and `<name>.parquet`, in the order they are written. */
export const TABLE_FILES: readonly string[] = [
  ...EXPORTED_TABLES.map(({ name }) => name),
  LEDGER_VALUED,
  YEAR_SUMMARY,
  DISPOSALS,
];

/** Form 8949's rows of the disposals, written with the tables' CSV. */
export const FORM_8949 = 'form8949.csv';

/** The tax-software files: `<format>.csv` each, from `sql/exports/<format>.sql`. */
export const TAX_TOOL_FORMATS = ['koinly', 'cointracking'] as const;

/** Every file an export may write into `--out`: nothing else there is ledgerpipe's to touch. */
export const EXPORT_FILE_NAMES: readonly string[] = [
  ...TABLE_FILES.flatMap((name) => [`${name}.csv`, `${name}.parquet`]),
  FORM_8949,
  ...TAX_TOOL_FORMATS.map((format) => `${format}.csv`),
  REPORT,
  MANIFEST,
];

/** `a, b and c`. */
const listed = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * What an export writes, for `--help` (export, run): made from the lists above, so that the help names every
 * file the exporter writes and no other.
 *
 * @example
 * `Writes into --out: ${EXPORTED_FILES_TEXT}.` // 'Writes into --out: margin_records, ... and disposals as .csv and ...'
 */
export const EXPORTED_FILES_TEXT =
  `${listed(TABLE_FILES)} as .csv and .parquet (--format csv,parquet; ${FORM_8949} with csv), ` +
  `${listed(TAX_TOOL_FORMATS.map((format) => `${format}.csv`))} (--format ${TAX_TOOL_FORMATS.join(',')}), ${REPORT} (--format report), and ${MANIFEST}`;
