import { writeFile } from 'node:fs/promises';
import { readUnpriced, type Unpriced } from '../prices/unpriced.js';
import { OPEN_STATUSES } from '../streams/open-statuses.js';
import type { Completeness } from '../warehouse/completeness.js';
import type { Valuation } from '../warehouse/values.js';
import { readSqlFile } from '../warehouse/sql-files.js';
import { formatWindow, type Window } from '../time/window.js';
import { readUnreviewed } from '../transform/unreviewed.js';
import { packageVersion } from '../util/package-root.js';
import { literal } from '../warehouse/quote.js';
import { readCatalogVersion, readNotFinal } from '../warehouse/reports.js';
import { timestampTzSql } from '../warehouse/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { monthlyBarChart } from './charts.js';
import { completenessSection, holdingsSection } from './completeness.js';
import { cell, escape, table, text } from './html.js';
import { REPORT_STYLE } from './style.js';

export const REPORT = 'report.html';

/** What the report shows that the warehouse cannot tell by itself: the coverage the gap rule found. */
export interface ReportFacts {
  coverage: readonly { account: string; stream: string; covered: readonly Window[]; gaps: readonly Window[] }[];
  /** What the run read of the completeness views, for the page's account(s); read from the views when absent. */
  completeness?: Completeness;
}

/** The charts' classes: what each monthly chart adds up (README, "The report"). */
const CHARTS = [
  { id: 'realized-pnl', title: 'Realized PnL by month', classes: ['realized_pnl'] },
  { id: 'fees', title: 'Fees by month', classes: ['trading_fee', 'withdrawal_fee', 'other_fee'] },
  { id: 'funding', title: 'Funding by month', classes: ['funding'] },
] as const;

type Row = Record<string, unknown>;

async function rows(warehouse: Warehouse, sql: string): Promise<Row[]> {
  return warehouse.exclusive(async (c) => (await c.runAndReadAll(sql)).getRowObjectsJS());
}


function warningList(warnings: readonly string[]): string {
  if (warnings.length === 0) return '<p class="none" id="no-warnings">No warnings: the range is covered, every record is final, every movement is priced, every type is reviewed.</p>';
  return `<ul id="warnings">${warnings.map((w) => `<li>${escape(w)}</li>`).join('')}</ul>`;
}

/** Every warning of the range, in words: gaps, records not final, unpriced assets, unreviewed types. */
async function warnings(warehouse: Warehouse, range: Window, facts: ReportFacts, unpriced: readonly Unpriced[], account: string | undefined): Promise<string[]> {
  const list: string[] = [];
  const mine = (a: string) => account === undefined || a === account;
  for (const c of facts.coverage) for (const g of c.gaps) list.push(`Gap: ${c.account} ${c.stream} is not in the warehouse for ${formatWindow(g)}; the figures leave it out.`);
  for (const n of (await readNotFinal(warehouse, range, OPEN_STATUSES)).filter((x) => mine(x.account))) {
    list.push(`Not final: ${n.account} ${n.stream}, ${n.count} in ${n.asset} (${n.total}) ${n.state === 'open' ? 'still pending now' : 'final only after the range ends'}; not in the ledger.`);
  }
  for (const u of unpriced) list.push(`Unpriced: ${u.entries} ${u.asset} movements have no ${u.missing === 'usdt' ? 'USDT price' : `${u.missing} rate`}; their value is left empty, never guessed.`);
  for (const u of (await warehouse.exclusive((c) => readUnreviewed(c))).filter((x) => mine(x.account))) {
    list.push(`Unreviewed type: ${u.account} ${u.source} ${u.field} "${u.type}", ${u.records} records (${u.asset} ${u.total}); booked as unreviewed.`);
  }
  return list;
}

/** The monthly sums of the charts' tax classes, in value_usdt (or amount for USDT alone when nothing is priced). */
async function monthly(warehouse: Warehouse, where: string, valuation: Valuation): Promise<{ months: string[]; charts: string[] }> {
  const tz = literal(valuation.timeZone);
  const data = await rows(
    warehouse,
    `SELECT strftime(timezone(${tz}, l.ts), '%Y-%m') AS month, m.tax_class, sum(CAST(l.value_usdt AS DOUBLE)) AS value
     FROM ${REPORT_ROWS} AS l JOIN category_meaning AS m USING (category)
     WHERE ${where}
     GROUP BY ALL ORDER BY month`,
  );
  const months = [...new Set(data.map((r) => String(r['month'])))].sort();
  const charts = CHARTS.map((chart) => {
    const values = months.map((month) => {
      const inMonth = data.filter((r) => r['month'] === month && (chart.classes as readonly string[]).includes(String(r['tax_class'])));
      return inMonth.length === 0 ? null : inMonth.reduce((sum, r) => sum + Number(r['value'] ?? 0), 0);
    });
    return `<figure id="chart-${chart.id}" class="chart">${monthlyBarChart(chart.title, months, [{ name: 'USDT', values }], 'USDT')}</figure>`;
  });
  return { months, charts };
}

/**
 * The range's valued ledger rows, with the columns the report reads, made once (sql/report/rows.sql: a temporary
 * table of the warehouse's connection) for its four reads: each read of the valued ledger computes every row's
 * value anew (docs/performance.md, "Prices"). One name serves: a warehouse's exports, and so its reports, run one
 * after another (runPipeline writes the accounts' own files in turn).
 */
const REPORT_ROWS = 'lp_report_rows';

/**
 * Writes the year-end report (README, "The report"): one HTML page with everything inline (style, SVG charts,
 * no script, nothing fetched): the range and its software, every warning, coverage per stream, the per-asset
 * summary (year_summary, exact), monthly realized PnL, fees and funding as charts, and the largest movements.
 * It prints on A4 (a print stylesheet).
 */
export async function writeReport(warehouse: Warehouse, path: string, content: { range: Window; valuation: Valuation; facts: ReportFacts; account?: string }): Promise<void> {
  const { range, account } = content;
  const where = `l.ts >= ${timestampTzSql(range.start)} AND l.ts < ${timestampTzSql(range.end)}${account === undefined ? '' : ` AND l.account = ${literal(account)}`}`;
  const rowsFile = await readSqlFile('report/rows.sql');
  await warehouse.exclusive(async (c) => {
    await c.run(`SET VARIABLE lp_from = ${timestampTzSql(range.start)}`);
    await c.run(`SET VARIABLE lp_to = ${timestampTzSql(range.end)}`);
    await c.run(`SET VARIABLE lp_account = ${account === undefined ? 'NULL' : literal(account)}`);
    await c.run(rowsFile.text);
  });
  try {
    await writeReportOf(warehouse, path, content, where);
  } finally {
    await warehouse.exclusive((c) => c.run(`DROP TABLE IF EXISTS ${REPORT_ROWS}`)).catch(() => undefined);
  }
}

/** The page itself, its reads of the valued rows from REPORT_ROWS. */
async function writeReportOf(warehouse: Warehouse, path: string, content: { range: Window; valuation: Valuation; facts: ReportFacts; account?: string }, where: string): Promise<void> {
  const { range, valuation, facts, account } = content;
  const fiat = valuation.fiat === null ? undefined : 'value_fiat';
  const unpriced = await readUnpriced(warehouse, range, valuation, account, REPORT_ROWS);
  const summary = await rows(warehouse, `SELECT * FROM lp_year_summary('${REPORT_ROWS}')`);
  const largest = await rows(
    warehouse,
    `SELECT account, strftime(timezone(${literal(valuation.timeZone)}, ts), '%Y-%m-%d %H:%M') AS time, category, asset, lp_decimal_text(amount) AS amount, lp_decimal_text(value_usdt) AS value_usdt, source_id
     FROM ${REPORT_ROWS} AS l WHERE ${where} AND category NOT IN ('transfer_in', 'transfer_out')
     ORDER BY abs(value_usdt) DESC NULLS LAST, abs(amount) DESC, entry_id LIMIT 20`,
  );
  const { charts } = await monthly(warehouse, where, valuation);
  const warningsList = await warnings(warehouse, range, facts, unpriced, account);
  const catalog = (await readCatalogVersion(warehouse))?.version ?? 'none';
  const holdings = await holdingsSection(warehouse, range, valuation, account);
  const completeness = await completenessSection(warehouse, account, facts.completeness);
  const summaryRows = summary.map(
    (r) =>
      `<tr data-account="${escape(text(r['account']))}" data-asset="${escape(text(r['asset']))}" data-tax-class="${escape(text(r['tax_class']))}" data-year="${escape(text(r['year']))}">` +
      [cell(r['account']), cell(r['year']), cell(r['asset']), cell(r['tax_class']), cell(r['amount'], 'num amount'), cell(r['value_usdt'], 'num value-usdt'), ...(fiat === undefined ? [] : [cell(r[fiat], 'num value-fiat')]), cell(r['entries'], 'num'), cell(r['unpriced_entries'], 'num')].join('') +
      '</tr>',
  );
  const coverageRows = facts.coverage.map(
    (c) => `<tr class="${c.gaps.length > 0 ? 'gap' : ''}">${[cell(c.account), cell(c.stream), cell(c.covered.map(formatWindow).join('; ')), cell(c.gaps.length === 0 ? 'none' : c.gaps.map(formatWindow).join('; '))].join('')}</tr>`,
  );
  const largestRows = largest.map((r) => `<tr>${[cell(r['account']), cell(r['time']), cell(r['category']), cell(r['asset']), cell(r['amount'], 'num'), cell(r['value_usdt'], 'num'), cell(r['source_id'])].join('')}</tr>`);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Year-end report ${escape(formatWindow(range))}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${REPORT_STYLE}</style></head>
<body>
<header><h1>Year-end report</h1>
<p class="meta">${account === undefined ? '' : `Account <b>${escape(account)}</b> · `}Range <b>${escape(formatWindow(range))}</b> (half-open, UTC) · time zone ${escape(valuation.timeZone)} · fiat ${escape(valuation.fiat ?? 'none')} · ledgerpipe ${escape(packageVersion())} · type catalog ${escape(catalog.slice(0, 12))}</p></header>
<section><h2>Warnings</h2>${warningList(warningsList)}</section>
<section><h2>Coverage</h2>${table('coverage', ['Account', 'Stream', 'Covered', 'Gaps'], coverageRows, 'No stream was checked.')}</section>
${completeness}
${holdings}
<section><h2>Per-asset summary</h2><p class="note">Amounts and values are exact (year_summary). A value is empty when any movement it adds up has no price.</p>
${table('year-summary', ['Account', 'Year', 'Asset', 'Tax class', 'Amount', 'Value USDT', ...(valuation.fiat === null ? [] : [`Value ${valuation.fiat}`]), 'Entries', 'Unpriced'], summaryRows, 'No movement in the range.')}</section>
<section class="charts"><h2>By month</h2>${charts.join('\n')}</section>
<section><h2>Largest movements</h2>${table('largest', ['Account', 'Time', 'Category', 'Asset', 'Amount', 'Value USDT', 'Record'], largestRows, 'No movement in the range.')}</section>
<footer>Written by ledgerpipe from the warehouse's records and the platform's hourly candles (README, "Values").</footer>
</body></html>
`;
  await writeFile(path, html);
}
