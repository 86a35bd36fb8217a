import { access, constants, mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors/usage-error.js';
import { WarehouseError } from '../errors/warehouse-error.js';
import { ident, literal } from '../duckdb/quote.js';
import { abandonExportSet, beginExportSet, commitExportSet, recoverExportSet, tempName } from './export-set.js';
import { EXPORTED_TABLES } from '../tables/index.js';
import { DISPOSALS, EXPORT_FILE_NAMES, FORM_8949, LEDGER_VALUED, REPORT, YEAR_SUMMARY } from './files.js';
import { MANIFEST, writeManifest, type ManifestFacts } from './manifest.js';
import type { ReportFacts } from '../report/report.js';
import { fiatColumn, NO_VALUATION, type Valuation } from '../warehouse/values.js';
import { assertRangeValued, RANGE_VALUED, withRangeValued } from '../reads/range-valued.js';
import { param, runModel, sqlGraph, withParams, type Params } from '../warehouse/sql-graph.js';
import { dropTemporary, hasTables } from '../duckdb/tables.js';
import { assertTransformed, ledgerInExportOrder } from '../warehouse/versions.js';
import { timestampTzSql } from '../duckdb/time-values.js';
import { isOutOfMemory, wholeLedgerMemoryBudget } from '../duckdb/memory-budget.js';
import { withSettings } from '../duckdb/session.js';
import { type Warehouse } from '../warehouse/warehouse.js';

export type ExportFormat = 'csv' | 'parquet' | 'koinly' | 'cointracking' | 'report';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'parquet', 'koinly', 'cointracking', 'report'];

/** Whether a format is a tax tool's file, whose rows group every trade of the range (exportBudget). */
const isTaxFile = (f: ExportFormat): f is 'koinly' | 'cointracking' => f === 'koinly' || f === 'cointracking';

/**
 * The memory budget an export of `formats` does its work over the whole range at (the range's valued rows, the
 * COPYs): the whole ledger's when it writes tax files, whose rows group every trade of the range at once; else
 * undefined, the warehouse's.
 */
export function exportBudget(formats: readonly ExportFormat[]): string | undefined {
  return formats.some(isTaxFile) ? wholeLedgerMemoryBudget() : undefined;
}

/**
 * Puts right what a killed or failed export left in `out` (a set half renamed is finished, one half written
 * rolled back, stray temporary files removed): every run that exports does this before anything else.
 */
export function recoverExports(out: string): Promise<string> {
  return recoverExportSet(out, EXPORT_FILE_NAMES);
}

/**
 * Tax-software files: `<out>/<name>.csv` from `sql/exports/<name>.sql`, a temporary view `lp_export_<name>` over
 * the range's tax rows and their values (sql/exports/tax_rows_of_range.sql), with its CSV options.
 */
const TAX_FILES: Record<'koinly' | 'cointracking', string> = {
  koinly: "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', ESCAPE '\"')",
  // CoinTracking's import format quotes every field, the header included.
  cointracking: "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', ESCAPE '\"', FORCE_QUOTE *)",
};

export interface ExportOptions {
  out: string;
  /** Rows with from <= ts < to, Unix ms. */
  from: number;
  to: number;
  formats: readonly ExportFormat[];
  /** What the pipeline knows of the files: with it, `manifest.json` is written as part of the set. */
  manifest?: ManifestFacts;
  /** The fiat and time zone of values and years (year_summary, ledger's ts_local and date_local). */
  valuation?: Valuation;
  /** What the report shows beyond the warehouse's tables (the `report` format). */
  report?: ReportFacts;
  /** The tax files and report of this account alone (`<out>/accounts/<name>/`); default every account. */
  account?: string;
  /**
   * Whether the caller holds the valued rows of [from, to) in RANGE_VALUED (withRangeValued), as the export stage
   * does for all its reads; else the export makes them for its own files, if they read them.
   */
  rangeValued?: boolean;
  clock?: () => number;
}

export interface ExportedFile {
  path: string;
  /** Rows of a table's file; undefined for the report, which is a page, not a table. */
  rows?: number;
}

/**
 * The order of disposals.csv and .parquet: by time, asset, account and lot, then by every other column, so that
 * slices of one instant (a margin account's many records of one millisecond) come out the same in every run. The
 * table keeps no order of its own, and with the first five alone two runs of the demo wrote 34 lines of
 * disposals.csv in another order. The names are those of each file's cells (in the CSV their text: quantities of
 * one instant then sort as text), as they have always been: so the files are made each by its own query.
 */
const DISPOSALS_ORDER =
  'disposed_at, asset, account, acquired_at NULLS LAST, match_rule, quantity, proceeds NULLS LAST, cost NULLS LAST, fees NULLS LAST, trade_group NULLS LAST, flags NULLS LAST';

interface Column {
  name: string;
  type: string;
}

export async function columnsOf(warehouse: Warehouse, table: string): Promise<Column[]> {
  const reader = await warehouse.exclusive((c) =>
    // duckdb_columns(), of which information_schema.columns is a view: 4.6 ms where the view took 7.5 ms.
    c.runAndReadAll(
      "SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = $table ORDER BY column_index",
      { table },
    ),
  );
  return reader.getRowObjectsJS().map((r) => ({ name: String(r['column_name']), type: String(r['data_type']) }));
}

/**
 * A CSV cell: decimals plain without trailing zeros, times ISO with milliseconds and Z (docs/files.md),
 * text with a formula's first character neutralised (lp_csv_text).
 */
function csvCell(column: Column, as = column.name): string {
  const name = ident(column.name);
  if (column.type.startsWith('DECIMAL')) return `lp_decimal_text(${name}) AS ${ident(as)}`;
  if (column.type === 'TIMESTAMP WITH TIME ZONE') return `lp_time_text(${name}) AS ${ident(as)}`;
  if (column.type === 'VARCHAR') return `lp_csv_text(${name}) AS ${ident(as)}`;
  return as === column.name ? name : `${name} AS ${ident(as)}`;
}

/** A file's cell of a column under the name `as`: as the CSV writes it (csvCell), or the column itself in Parquet. */
function cellOf(format: TableFormat, column: Column, as = column.name): string {
  if (format === 'csv') return csvCell(column, as);
  return as === column.name ? ident(column.name) : `${ident(column.name)} AS ${ident(as)}`;
}

/**
 * The rows of the range in export order: ts, then the key, then the account. The models are views on tables
 * written as records load and the ledger is updated in place (docs/transform.md), so the order
 * is made here (the sort keys are the table's own columns, t., not the cells' text), unless the table's rows
 * already lie in it (`inOrder`: a ledger that does, ledgerInExportOrder), read as they lie with DuckDB's
 * insertion order kept (runCopies).
 */
function rangeSelect(
  relation: string,
  key: string,
  cells: readonly string[],
  options: ExportOptions,
  inOrder: boolean,
): string {
  const select = `SELECT ${cells.join(', ')} FROM ${relation} AS t WHERE t.ts >= ${timestampTzSql(options.from)} AND t.ts < ${timestampTzSql(options.to)}`;
  return inOrder ? select : `${select}\n    ORDER BY t.ts, t.${ident(key)}, t.account`;
}

/** One COPY of the export and the file it fills. */
export interface CopyJob {
  file: { temp: string; final: string; rows: number };
  sql: string;
}

/** The files of sql/ a COPY's connection runs first (the range's temporary tables and views), and their parameters. */
export interface CopySetup {
  files: readonly string[];
  params: Params;
}

/**
 * Runs the COPY statements one after another, on the warehouse's connection (where RANGE_VALUED is) set up by
 * `setup`, whose temporary tables and views are dropped after. A COPY sorts its rows (rangeSelect), and two sorts
 * side by side ran out of the 224 MB budget for a year of 300k fills; one at a time, each on every thread DuckDB
 * has, the year of 983k fills exported in 31 s against 41 s on one thread, at the same peak RSS
 * (docs/performance.md, "Memory"). No COPY starts once one has failed, and the one running has finished before
 * this returns or throws, so no COPY is still writing while its file is cleaned up.
 */
export async function runCopies(
  warehouse: Warehouse,
  jobs: CopyJob[],
  setup: CopySetup = { files: [], params: {} },
): Promise<void> {
  const graph = await sqlGraph();
  const made = setup.files.flatMap((file) => graph.file(file).creates);
  await warehouse.exclusive((c) =>
    // Rows in the order the COPY reads them: a ledger in the exports' order is read as it lies (rangeSelect).
    withSettings(c, { preserve_insertion_order: true }, () =>
      withParams(c, setup.params, async () => {
        try {
          for (const file of setup.files) await runModel(c, file);
          for (const job of jobs) {
            const reader = await c.runAndReadAll(job.sql);
            job.file.rows = Number(reader.getRows()[0]?.[0] ?? 0);
          }
        } finally {
          // Best effort, as a failed COPY's error must not be hidden: the next export makes them anew.
          if (made.length > 0) await dropTemporary(c, made).catch(() => undefined);
        }
      }),
    ),
  );
}

/**
 * With a time zone other than UTC, the ledger's files gain `ts_local` (the wall-clock time there, ISO without an
 * offset; a TIMESTAMP in Parquet) and `date_local` after its columns (docs/local-time.md).
 */
function localTimeCells(timeZone: string, format: 'csv' | 'parquet'): string[] {
  if (timeZone === 'UTC') return [];
  const local = `timezone(${literal(timeZone)}, ts)`;
  return [
    format === 'csv' ? `strftime(${local}, '%Y-%m-%dT%H:%M:%S.%g') AS ts_local` : `${local} AS ts_local`,
    `CAST(${local} AS DATE) AS date_local`,
  ];
}

/** Makes sure `out` is a folder ledgerpipe can write, or says which flag to change. */
export async function prepareOut(out: string): Promise<void> {
  try {
    await mkdir(out, { recursive: true });
    await access(out, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot write to --out ${out} (${reason}); choose a folder you can write to`, error);
  }
}

/**
 * The year summary of the range, made once for its CSV and its Parquet (sql/exports/year_summary_of_range.sql),
 * and the tax files' rows of the range and their values, made once for every tax file
 * (sql/exports/tax_rows_of_range.sql): temporary tables of the COPYs' connection, read by name.
 */
const YEAR_SUMMARY_TABLE = 'lp_export_year_summary';

/** Columns of valued rows as written: value_fiat under the fiat's own name (value_eur), and none without a fiat. */
function valuedColumns(columns: readonly Column[], valuation: Valuation): { column: Column; as: string }[] {
  return columns.flatMap((column) => {
    if (column.name !== 'value_fiat') return [{ column, as: column.name }];
    return valuation.fiat === null ? [] : [{ column, as: fiatColumn(valuation.fiat) }];
  });
}

/** The columns a query gives, with their types. */
async function describe(warehouse: Warehouse, query: string): Promise<Column[]> {
  return warehouse.exclusive(async (c) =>
    (await c.runAndReadAll(`DESCRIBE ${query}`)).getRows().map((r) => ({ name: String(r[0]), type: String(r[1]) })),
  );
}

/** The COPY jobs planned so far, and the files of sql/exports/ their connection runs first. */
interface CopyPlan {
  jobs: CopyJob[];
  setup: string[];
  /** Plans one COPY into `<out>/<basename>`, through a temporary name beside it. */
  plan: (name: string, copy: (temp: string) => string) => void;
}

/** An empty plan of COPYs into `out`. */
function newCopyPlan(out: string): CopyPlan {
  const jobs: CopyJob[] = [];
  return {
    jobs,
    setup: [],
    plan: (name, copy) => {
      const temp = resolve(join(out, tempName(name)));
      jobs.push({ file: { temp, final: resolve(join(out, name)), rows: 0 }, sql: copy(literal(temp)) });
    },
  };
}

/** The formats of the tables' files. */
type TableFormat = 'csv' | 'parquet';

/** The options of a COPY to a table's file in `format`. */
function copyTarget(format: TableFormat): string {
  return format === 'csv'
    ? "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', ESCAPE '\"')"
    : '(FORMAT parquet, COMPRESSION snappy)';
}

/**
 * One COPY per file the formats ask for, each into a temporary name beside its final one in `--out`, and the
 * files of sql/exports/ their connection runs first.
 */
async function planCopies(warehouse: Warehouse, options: ExportOptions): Promise<{ jobs: CopyJob[]; setup: string[] }> {
  const copies = newCopyPlan(options.out);
  const tables = options.formats.filter((f): f is TableFormat => f === 'csv' || f === 'parquet');
  const valuation = options.valuation ?? NO_VALUATION;
  if (tables.length > 0) {
    await planTableCopies(warehouse, options, tables, valuation, copies);
    await planValuedCopies(warehouse, tables, valuation, copies);
    await planYearSummaryCopies(warehouse, tables, valuation, copies);
    if (await warehouse.exclusive((c) => hasTables(c, [DISPOSALS])))
      await planDisposalsCopies(warehouse, tables, copies);
  }
  const taxFormats = options.formats.filter(isTaxFile);
  if (taxFormats.length > 0) {
    copies.setup.push('exports/tax_rows_of_range.sql');
    for (const format of taxFormats) {
      copies.setup.push(`exports/${format}.sql`);
      copies.plan(`${format}.csv`, (temp) => `COPY ${ident(`lp_export_${format}`)} TO ${temp} ${TAX_FILES[format]}`);
    }
  }
  return { jobs: copies.jobs, setup: copies.setup };
}

/** The exported tables' files (EXPORTED_TABLES), each the range's rows of its table. */
async function planTableCopies(
  warehouse: Warehouse,
  options: ExportOptions,
  tables: TableFormat[],
  valuation: Valuation,
  copies: CopyPlan,
): Promise<void> {
  const ledgerInOrder = await ledgerInExportOrder(warehouse);
  for (const { name, key, omit } of EXPORTED_TABLES) {
    const columns = (await columnsOf(warehouse, name)).filter((c) => !(omit ?? []).includes(c.name));
    for (const format of tables) {
      const cells = [
        ...columns.map((c) => cellOf(format, c)),
        ...(name === 'ledger' ? localTimeCells(valuation.timeZone, format) : []),
      ];
      copies.plan(
        `${name}.${format}`,
        (temp) =>
          `COPY (${rangeSelect(ident(name), key, cells, options, name === 'ledger' && ledgerInOrder)}) TO ${temp} ${copyTarget(format)}`,
      );
    }
  }
}

/** The valued ledger's files. */
async function planValuedCopies(
  warehouse: Warehouse,
  tables: TableFormat[],
  valuation: Valuation,
  copies: CopyPlan,
): Promise<void> {
  // Made once, in the files' order, for every format and every read of the export (withRangeValued).
  const columns = valuedColumns(await describe(warehouse, 'SELECT * FROM lp_ledger_valued_rows()'), valuation);
  for (const format of tables) {
    // As the ledger's file: with a --tz other than UTC, ts_local and date_local after its columns.
    const cells = [
      ...columns.map(({ column, as }) => cellOf(format, column, as)),
      ...localTimeCells(valuation.timeZone, format),
    ];
    copies.plan(
      `${LEDGER_VALUED}.${format}`,
      (temp) => `COPY (SELECT ${cells.join(', ')} FROM ${RANGE_VALUED}) TO ${temp} ${copyTarget(format)}`,
    );
  }
}

/** The year summary's files. */
async function planYearSummaryCopies(
  warehouse: Warehouse,
  tables: TableFormat[],
  valuation: Valuation,
  copies: CopyPlan,
): Promise<void> {
  copies.setup.push('exports/year_summary_of_range.sql');
  const columns = await describe(warehouse, "SELECT * FROM lp_year_summary('lp_ledger_valued')");
  const named = valuedColumns(columns, valuation);
  for (const format of tables) {
    const cells = named.map(({ column, as }) => cellOf(format, column, as));
    copies.plan(
      `${YEAR_SUMMARY}.${format}`,
      (temp) =>
        `COPY (SELECT ${cells.join(', ')} FROM ${YEAR_SUMMARY_TABLE} ORDER BY account, year, asset, tax_class) TO ${temp} ${copyTarget(format)}`,
    );
  }
}

/**
 * Realized gains (src/gains/): the disposals of the range (sql/exports/disposals_of_range.sql), and Form 8949's
 * rows of them with the CSV (sql/exports/form8949.sql).
 */
async function planDisposalsCopies(warehouse: Warehouse, tables: TableFormat[], copies: CopyPlan): Promise<void> {
  copies.setup.push('exports/disposals_of_range.sql');
  const columns = await columnsOf(warehouse, DISPOSALS);
  for (const format of tables) {
    const cells = columns.map((c) => cellOf(format, c));
    copies.plan(
      `${DISPOSALS}.${format}`,
      (temp) =>
        `COPY (SELECT ${cells.join(', ')} FROM lp_export_disposals ORDER BY ${DISPOSALS_ORDER}) TO ${temp} ${copyTarget(format)}`,
    );
  }
  if (tables.includes('csv')) {
    copies.setup.push('exports/form8949.sql');
    copies.plan(FORM_8949, (temp) => `COPY lp_export_form8949 TO ${temp} ${copyTarget('csv')}`);
  }
}

/**
 * Runs `work` with the valued rows of the export's range in RANGE_VALUED: the caller's (`rangeValued`), else made
 * for it when its files read them (the ledger's valued files, the year summary, the tax files' values, the
 * report).
 */
function withValuedRows<T>(
  warehouse: Warehouse,
  options: ExportOptions,
  report: boolean,
  work: () => Promise<T>,
): Promise<T> {
  // Every format but the report reads them, and the report too when it is written.
  const reads = report || options.formats.some((f) => f !== 'report');
  const range = { start: options.from, end: options.to };
  if (options.rangeValued === true) {
    assertRangeValued(warehouse, range, "the export's");
    return work();
  }
  if (!reads) return work();
  return withRangeValued(warehouse, range, work, exportBudget(options.formats));
}

/** Writes the report under its temporary name in `--out`, and returns that path. */
async function writeReportFile(warehouse: Warehouse, options: ExportOptions, report: ReportFacts): Promise<string> {
  const path = join(options.out, tempName(REPORT));
  // Loaded only when a report is written: the charting library is large.
  const { writeReport } = await import('../report/report.js');
  await writeReport(warehouse, path, {
    range: { start: options.from, end: options.to },
    valuation: options.valuation ?? NO_VALUATION,
    facts: report,
    ...(options.account === undefined ? {} : { account: options.account }),
  });
  return path;
}

/** What an export that failed while writing throws: a full disk or another failure to write under `--out`. */
function writeFailure(error: unknown, out: string): unknown {
  // Out of the memory budget is not a problem of --out: the CLI says which setting to raise (cli/exit.ts).
  if (isOutOfMemory(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/No space left/i.test(message))
    return new WarehouseError(
      `the disk under --out ${out} is full; the previous exports are untouched — free space and run export again`,
      'LP_DISK_FULL',
      'unexpected',
      error,
    );
  return new WarehouseError(
    `cannot write the exports to --out ${out}: ${message.split('\n')[0]}; the previous exports are untouched`,
    'LP_EXPORT_FAILED',
    'unexpected',
    error,
  );
}

/**
 * Writes the files of `[from, to)` (TABLE_FILES, Form 8949, the tax files, the report) in each format asked:
 * CSV with RFC 4180 quoting, `\n` line ends and a header row, and Parquet with the warehouse's types. The files
 * are replaced as a set (export-set.ts): all are written under temporary names, then renamed, and the set is
 * recorded complete last, so a failed export leaves the previous set whole, and one killed half way is finished
 * or rolled back by the next run.
 *
 * @example
 * await exportFiles(warehouse, { out: './exports', from, to, formats: ['csv', 'parquet'] });
 */
export async function exportFiles(warehouse: Warehouse, options: ExportOptions): Promise<ExportedFile[]> {
  await prepareOut(options.out);
  // The files are written with the macros and views of the transform (sql/): one of this release must have run.
  await assertTransformed(warehouse);
  await recoverExports(options.out);
  const { jobs, setup } = await planCopies(warehouse, options);
  // Every file is planned before any is written: the journal names them all, so a killed run's are found.
  const set = jobs.map(({ file }) => ({ temp: basename(file.temp), final: basename(file.final) }));
  const report = options.formats.includes('report') && options.report !== undefined ? options.report : undefined;
  if (report !== undefined) set.push({ temp: tempName(REPORT), final: REPORT });
  if (options.manifest !== undefined) set.push({ temp: tempName(MANIFEST), final: MANIFEST });
  const previous = await beginExportSet(options.out, set);
  try {
    // The files of sql/exports/ read the range and the account (none: all) from these parameters.
    const params = {
      lp_from: param.instant(options.from),
      lp_to: param.instant(options.to),
      lp_account: param.text(options.account),
    };
    const copies = () => runCopies(warehouse, jobs, { files: setup, params });
    const files = await withValuedRows(warehouse, options, report !== undefined, async () => {
      const budget = exportBudget(options.formats);
      await (budget === undefined ? copies() : warehouse.withMemoryLimit(budget, copies));
      const written = jobs.map(({ file }) => ({ name: basename(file.final), path: file.temp, rows: file.rows }));
      if (report !== undefined)
        written.push({ name: REPORT, path: await writeReportFile(warehouse, options, report), rows: 0 });
      return written;
    });
    if (options.manifest !== undefined) {
      await writeManifest(join(options.out, tempName(MANIFEST)), {
        range: { start: options.from, end: options.to },
        facts: options.manifest,
        files,
        now: (options.clock ?? Date.now)(),
      });
    }
  } catch (error) {
    // Cleaning up must not hide why the export failed.
    await abandonExportSet(options.out, set, previous);
    throw writeFailure(error, options.out);
  }
  try {
    await commitExportSet(options.out, set);
  } catch (error) {
    // The journal says every file was complete: the next export puts the rest in place before anything else.
    throw new WarehouseError(
      `cannot put the exports in place in --out ${options.out}: ${(error as Error).message}; run export again, and it finishes putting this set in place first`,
      'LP_EXPORT_RENAME',
      'unexpected',
      error,
    );
  }
  return [
    ...jobs.map(({ file }) => ({ path: file.final, rows: file.rows })),
    ...(report === undefined ? [] : [{ path: resolve(join(options.out, REPORT)) }]),
  ];
}
