import { writeFile } from 'node:fs/promises';
import { readUnpriced, type Unpriced } from '../prices/unpriced.js';
import { OPEN_STATUSES } from '../streams/open-statuses.js';
import type { Completeness } from '../reads/completeness.js';
import type { Valuation } from '../warehouse/values.js';
import { param, readModel, runModel, withParams } from '../warehouse/sql-graph.js';
import { formatWindow, type Window } from '../time/window.js';
import { readUnreviewed } from '../transform/unreviewed.js';
import { packageVersion } from '../util/package-root.js';
import { readCatalogVersion, readNotFinal } from '../reads/reports.js';
import { hasTables } from '../duckdb/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { monthlyBarChart } from './charts.js';
import { completenessSection, holdingsSection, readHoldingsAtEnds, residualsSection } from './completeness.js';
import { cell, escape, moneyCell, quantityCell, table, tableWithTotals, text } from './html.js';
import { readPlausibility, type Implausible } from '../reads/plausibility.js';
import { formatDecimal, formatRange, MONEY_DECIMALS } from './format.js';
import { REPORT_STYLE } from './style.js';

export const REPORT = 'report.html';

/** What the report shows that the warehouse cannot tell by itself: the coverage the gap rule found. */
export interface ReportFacts {
  coverage: readonly { account: string; stream: string; covered: readonly Window[]; gaps: readonly Window[] }[];
  /** What the run read of the completeness views, for the page's account(s); read from the views when absent. */
  completeness?: Completeness;
  /** The range ends after the present: the period to date, its records read up to this instant (Unix ms). */
  toDate?: { readUpTo: number };
  /** The period's name when it is a tax year (`tax year 2025-26`): the heading says it before its dates. */
  taxYear?: string;
  /**
   * What the run read of the view plausibility for the range (every account's, largest value first): the page shows
   * its account's. Read from the view when absent: a year of 1M fills takes 15 s to read it, and it ran out of the
   * default memory budget when read a second time beside the export's tables (docs/performance.md, "Gains kept").
   */
  plausibility?: readonly Implausible[];
}

/** The charts' classes: what each monthly chart adds up (docs/report.md). */
const CHARTS = [
  { id: 'realized-pnl', title: 'Realized PnL by month', classes: ['realized_pnl'] },
  { id: 'fees', title: 'Fees by month', classes: ['trading_fee', 'withdrawal_fee', 'other_fee'] },
  { id: 'funding', title: 'Funding by month', classes: ['funding'] },
] as const;

type Row = Record<string, unknown>;

/** Reads one of the report's files of sql/report/ (its rows), with the page's parameters bound. */
type Read = (file: string) => Promise<Row[]>;

/**
 * The page's reads: the range and the account (rows.sql made lp_report_rows of them), the time zone of its times and
 * months, and whether its values are the fiat's (lp_report_fiat) or USDT's.
 */
function reader(warehouse: Warehouse, content: { range: Window; valuation: Valuation; account?: string }): Read {
  const params = {
    ...reportParams(content.range, content.account),
    lp_time_zone: content.valuation.timeZone,
    lp_report_fiat: valueOf(content.valuation).column === 'value_fiat',
  };
  return (file) => warehouse.exclusive((c) => withParams(c, params, () => readModel(c, `report/${file}.sql`)));
}

/** The range and account (none: every account) as the report's files take them. */
const reportParams = (range: Window, account: string | undefined) => ({
  lp_from: param.instant(range.start),
  lp_to: param.instant(range.end),
  lp_account: param.text(account),
});

function warningList(warnings: readonly string[]): string {
  if (warnings.length === 0)
    return '<p class="none" id="no-warnings">No warnings: the range is covered, every record is final, every movement is priced, every type is reviewed.</p>';
  return `<ul id="warnings">${warnings.map((w) => `<li>${escape(w)}</li>`).join('')}</ul>`;
}

/** Every warning of the range, in words: gaps, records not final, unpriced assets, unreviewed types. */
async function warnings(
  warehouse: Warehouse,
  range: Window,
  facts: ReportFacts,
  unpriced: readonly Unpriced[],
  account: string | undefined,
): Promise<string[]> {
  const list: string[] = [];
  const mine = (a: string) => account === undefined || a === account;
  for (const c of facts.coverage)
    for (const g of c.gaps)
      list.push(
        `Gap: ${c.account} ${c.stream} is not in the warehouse for ${formatWindow(g)}; the figures leave it out.`,
      );
  for (const n of (await readNotFinal(warehouse, range, OPEN_STATUSES)).filter((x) => mine(x.account))) {
    list.push(
      `Not final: ${n.account} ${n.stream}, ${n.count} in ${n.asset} (${n.total}) ${n.state === 'open' ? 'still pending now' : 'final only after the range ends'}; not in the ledger.`,
    );
  }
  for (const u of unpriced)
    list.push(
      `Unpriced: ${u.entries} ${u.asset} movements have no ${u.missing === 'usdt' ? 'USDT price' : `${u.missing} rate`}; their value is left empty, never guessed.`,
    );
  for (const u of (await warehouse.exclusive((c) => readUnreviewed(c))).filter((x) => mine(x.account))) {
    list.push(
      `Unreviewed type: ${u.account} ${u.source} ${u.field} "${u.type}", ${u.records} records (${u.asset} ${u.total}); booked as unreviewed.`,
    );
  }
  return list;
}

/** The monthly sums of the charts' tax classes, in the page's currency (the fiat's, else USDT). */
async function monthly(read: Read, valuation: Valuation): Promise<{ months: string[]; charts: string[] }> {
  const { currency } = valueOf(valuation);
  const data = await read('monthly');
  const months = [...new Set(data.map((r) => String(r['month'])))].sort();
  const charts = CHARTS.map((chart) => {
    const values = months.map((month) => {
      const inMonth = data.filter(
        (r) => r['month'] === month && (chart.classes as readonly string[]).includes(String(r['tax_class'])),
      );
      return inMonth.length === 0 ? null : inMonth.reduce((sum, r) => sum + Number(r['value'] ?? 0), 0);
    });
    return `<figure id="chart-${chart.id}" class="chart">${monthlyBarChart(`${chart.title} (${currency})`, months, [{ name: currency, values }])}</figure>`;
  });
  return { months, charts };
}

/**
 * The range's valued ledger rows, with the columns the report reads, made once (sql/report/rows.sql: a temporary
 * table of the warehouse's connection, from the export's valued rows of the range, withRangeValued) for all its
 * reads: each read of the valued ledger computes every row's value anew (docs/performance.md, "Prices"). One name
 * serves: a warehouse's exports, and so its reports, run one after another (the export stage writes the accounts'
 * own files in turn: src/pipeline/export-stage.ts).
 */
const REPORT_ROWS = 'lp_report_rows';

/**
 * Writes the year-end report (docs/report.md): one HTML page with everything inline (style, SVG charts,
 * no script, nothing fetched): the range and its software, every warning, coverage per stream, the per-asset
 * summary (year_summary, exact), monthly realized PnL, fees and funding as charts, and the largest movements.
 * It prints on A4 (a print stylesheet). It reads the valued rows of `range` the caller holds in RANGE_VALUED
 * (withRangeValued, src/reads/range-valued.ts), as an export does.
 */
export async function writeReport(
  warehouse: Warehouse,
  path: string,
  content: { range: Window; valuation: Valuation; facts: ReportFacts; account?: string },
): Promise<void> {
  const { range, account } = content;
  await warehouse.exclusive((c) => withParams(c, reportParams(range, account), () => runModel(c, 'report/rows.sql')));
  try {
    await writeReportOf(warehouse, path, content, reader(warehouse, content));
  } finally {
    await warehouse.exclusive((c) => c.run(`DROP TABLE IF EXISTS ${REPORT_ROWS}`)).catch(() => undefined);
  }
}

/** For a range that ends after the present: the period to date, up to the instant its records were read. */
function toDate(facts: ReportFacts): string {
  if (facts.toDate === undefined) return '';
  return ` · <b id="to-date">to date: read up to ${escape(new Date(facts.toDate.readUpTo).toISOString())}</b>, the rest of the period not yet past`;
}

/**
 * Where the fiat's values come from, as the page's header says it (docs/values.md, "A fiat"); nothing without a fiat.
 */
function fiatSourceWords(valuation: Valuation): string {
  const { fiat, fiatSource } = valuation;
  if (fiat === null || fiatSource === null) return '';
  const words = {
    pair: `the platform's USDT${fiat} candles`,
    ecb: "the platform's USDTEUR candles × the European Central Bank's euro reference rates",
    file: 'your rates file (--fiat-rates)',
  }[fiatSource];
  return ` <span id="fiat-source">(by ${escape(words)})</span>`;
}

/** The page's valued column and its currency: the fiat's where one is given, else USDT. */
function valueOf(valuation: Valuation): { column: 'value_fiat' | 'value_usdt'; currency: string } {
  return valuation.fiat === null
    ? { column: 'value_usdt', currency: 'USDT' }
    : { column: 'value_fiat', currency: valuation.fiat };
}

/** A tax class in words, its name in the catalog kept as data-tax-class. */
const classCell = (label: unknown, taxClass: unknown): string =>
  `<td data-tax-class="${escape(text(taxClass))}">${escape(text(label))}</td>`;

/**
 * The headline: per tax class of the tax files, in words, its total in the page's currency, as a statement's
 * first lines. A class with a movement of no value has no total (a partial sum is never shown as one).
 */
async function totalsSection(read: Read, valuation: Valuation): Promise<string> {
  const { currency } = valueOf(valuation);
  const found = await read('totals');
  const body = found.map(
    (r) =>
      `<tr title="${escape(text(r['meaning']))}">${classCell(r['label'], r['tax_class'])}${moneyCell(r['total'], 'num total')}` +
      `${cell(Number(r['unvalued']) === 0 ? '' : `${r['unvalued']} of ${r['entries']} movements have no value`, 'unvalued')}</tr>`,
  );
  return `<section><h2>Totals in ${escape(currency)}</h2><p class="note">The movements of the tax files, by tax class: what each adds up to in ${escape(currency)}, each movement valued at its hour. Transfers between your own accounts are not here (they are in Holdings). Trades and conversions net to about zero (each side valued at the same hour): their gains depend on cost basis.</p>${table('totals', ['Tax class', `Total ${currency}`, ''], body, 'No movement in the range.')}</section>`;
}

/**
 * The per-asset summary (year_summary of the page's rows): classes in words, numbers for people, exact in data-exact.
 */
async function summarySection(read: Read, valuation: Valuation): Promise<string> {
  const summary = await read('summary');
  const fiat = valuation.fiat;
  const body = summary.map(
    (r) =>
      `<tr data-account="${escape(text(r['account']))}" data-asset="${escape(text(r['asset']))}" data-tax-class="${escape(text(r['tax_class']))}" data-year="${escape(text(r['year']))}">` +
      [
        cell(r['account']),
        cell(r['year']),
        cell(r['asset']),
        classCell(r['label'], r['tax_class']),
        quantityCell(r['amount'], 'num amount'),
        moneyCell(r['value_usdt'], 'num value-usdt'),
        ...(fiat === null ? [] : [moneyCell(r['value_fiat'], 'num value-fiat')]),
        cell(r['entries'], 'num'),
        cell(r['unpriced_entries'], 'num'),
      ].join('') +
      '</tr>',
  );
  const head = [
    'Account',
    'Year',
    'Asset',
    'Tax class',
    'Amount',
    'Value USDT',
    ...(fiat === null ? [] : [`Value ${fiat}`]),
    'Entries',
    'Unpriced',
  ];
  return `<section><h2>Per-asset summary</h2><p class="note">Rounded for reading; the exact amounts and values are in year_summary.csv. A value is empty when any movement it adds up has no price.</p>
${table('year-summary', head, body, 'No movement in the range.')}</section>`;
}

/**
 * The largest movements of the tax files (the catalog's tax classes that go into them), by value in the page's
 * currency.
 */
async function largestSection(read: Read, valuation: Valuation): Promise<string> {
  const { currency } = valueOf(valuation);
  const largest = await read('largest');
  const body = largest.map(
    (r) =>
      `<tr data-category="${escape(text(r['category']))}">${[cell(r['account']), cell(r['time'], 'time'), classCell(r['label'], r['tax_class']), cell(r['asset']), quantityCell(r['amount']), moneyCell(r['value']), cell(`${text(r['source'])} ${text(r['source_id'])}`)].join('')}</tr>`,
  );
  return `<section><h2>Largest movements</h2><p class="note">Of the tax files, by value in ${escape(currency)}; times in ${escape(valuation.timeZone)}.</p>${table('largest', ['Account', 'Time', 'Tax class', 'Asset', 'Amount', `Value ${currency}`, 'Record'], body, 'No movement in the range.')}</section>`;
}

/**
 * Realized gains of the page's range (docs/gains.md): per account, asset, tax year and term, the sums of the
 * disposals table (withdrawals left out), as gains_summary adds them, with their totals; how many slices had
 * nothing to match; and how they stand beside the futures' realized profit and loss, which is no disposal.
 */
async function gainsSection(warehouse: Warehouse, read: Read, valuation: Valuation): Promise<string> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['disposals']))))
    return '<section><h2>Gains</h2><p class="none">Not computed: run ledgerpipe export.</p></section>';
  const found = await read('gains');
  const [totals] = await read('gains_totals');
  const unit = text(found[0]?.['unit'] ?? '');
  const method = text(found[0]?.['cost_basis'] ?? '');
  const body = found.map(
    (r) =>
      `<tr data-account="${escape(text(r['account']))}" data-asset="${escape(text(r['asset']))}" data-tax-year="${escape(text(r['tax_year']))}" data-term="${escape(text(r['term']))}">` +
      [
        cell(r['account']),
        cell(r['asset']),
        cell(r['tax_year']),
        cell(r['term']),
        cell(r['disposals'], 'num'),
        moneyCell(r['proceeds'], 'num proceeds'),
        moneyCell(r['cost'], 'num cost'),
        moneyCell(r['fees'], 'num fees'),
        moneyCell(r['gain'], 'num gain'),
        cell(Number(r['unmatched']) === 0 ? '' : `${r['unmatched']} with nothing to match`, 'unmatched'),
      ].join('') +
      '</tr>',
  );
  const foot = [
    cell('Total'),
    cell(''),
    cell(''),
    cell(''),
    cell(totals?.['disposals'], 'num'),
    moneyCell(totals?.['proceeds'], 'num proceeds'),
    moneyCell(totals?.['cost'], 'num cost'),
    moneyCell(totals?.['fees'], 'num fees'),
    moneyCell(totals?.['gain'], 'num gain'),
    cell(''),
  ].join('');
  const unmatched = found.reduce((n, r) => n + Number(r['unmatched']), 0);
  const warning =
    unmatched === 0
      ? ''
      : `<p class="warn" id="gains-unmatched">${unmatched} disposal slices had no acquisition to match: their cost is 0, flagged no_acquisition in disposals.csv. Give the lots held before with --opening-lots (docs/history.md).</p>`;
  return `<section><h2>Gains</h2><p class="note">Realized gains by ${escape(method)}${unit === '' ? '' : ` in ${escape(unit)}`}: proceeds, allowable cost and fees of each disposal of the range, per asset and term; every slice is in disposals.csv, the sums in gains_summary (docs/gains.md).</p>${warning}
${tableWithTotals('gains', ['Account', 'Asset', 'Tax year', 'Term', 'Slices', 'Proceeds', 'Cost', 'Fees', 'Gain', ''], body, foot, 'No disposal in the range.')}
${await pnlBesideGains(read, valuation, text(totals?.['gain']))}</section>`;
}

/**
 * One line that sets the futures' realized profit and loss (tax class realized_pnl, in the tax files as a class
 * of its own: a contract closed, not an asset disposed of) beside the gains of the disposals of spot and margin
 * holdings above, so that neither is read as part of the other.
 */
async function pnlBesideGains(read: Read, valuation: Valuation, gains: string): Promise<string> {
  const { currency } = valueOf(valuation);
  const [pnl] = await read('realized_pnl');
  const realized = text(pnl?.['total']);
  if (Number(pnl?.['entries'] ?? 0) === 0) return '';
  const shown = (v: string) =>
    v === '' ? 'not known (a movement has no value)' : `${formatDecimal(v, MONEY_DECIMALS, true)} ${currency}`;
  return `<p class="note" id="pnl-beside-gains">Realized profit and loss of futures, ${escape(shown(realized))}, is in the tax files as a class of its own (Totals): a contract closed, not an asset disposed of. The gains above, ${escape(shown(gains))}, are those of disposals of spot and margin holdings (and of what the futures paid out, once disposed of). Neither includes the other.</p>`;
}

/**
 * Internal transfers of the range per asset, and why their net is not zero (docs/completeness.md, "Internal
 * transfers"): between account types with records they pair (transfer_in, transfer_out); with earn, bots, copy
 * trading or locks the other side has no records of its own (their balances are set against them in Holdings);
 * what is left unpaired is listed in Completeness.
 */
async function transfersSection(read: Read): Promise<string> {
  const found = await read('transfers');
  const body = found.map(
    (r) =>
      `<tr data-asset="${escape(text(r['asset']))}">${[cell(r['asset']), quantityCell(r['net'], 'num net'), quantityCell(r['paired'], 'num paired'), quantityCell(r['without_records'], 'num without-records'), quantityCell(r['unpaired'], 'num unpaired')].join('')}</tr>`,
  );
  return `<section><h2>Transfers between your own accounts</h2><p class="note">Per asset, the net of the range's internal transfers, and where it comes from: transfers between account types that both have records pair up and net to zero; those with earn, bots, copy trading or a lock have no records on their other side (their balances are in Holdings); those left unpaired are listed in Completeness. None is a disposal.</p>${table('transfers', ['Asset', 'Net', 'Paired', 'With accounts without records', 'Unpaired'], body, 'Every internal transfer of the range nets to zero.')}</section>`;
}

/** The movements of the range far outside the account's own scale (docs/review.md), each with its record. */
async function reviewSection(
  warehouse: Warehouse,
  range: Window,
  account: string | undefined,
  timeZone: string,
  read?: readonly Implausible[],
): Promise<string> {
  const found =
    read === undefined
      ? await readPlausibility(warehouse, range, account)
      : read.filter((i) => account === undefined || i.account === account);
  const what = {
    fee_above_1pct: 'A fee above 1% of its movement',
    income_above_holdings: 'Interest above the holdings that earned it',
    refund_above_fees: 'A refund above the fees paid',
  };
  const time = (ms: number) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(ms);
  const body = found.map(
    (i) =>
      `<tr data-finding="${escape(i.finding)}">${[cell(i.account), cell(time(i.ts), 'time'), cell(what[i.finding]), cell(i.asset), quantityCell(i.amount), moneyCell(i.valueUsdt), cell(`${i.comparedWith ?? ''} (${i.comparedAs})`), cell(`${i.source} ${i.sourceId}`)].join('')}</tr>`,
  );
  return `<section><h2>To review</h2><p class="note">Movements far outside the account's own scale, each with its record: none is changed or left out, and each may be right; a data error of that size would look the same (docs/review.md).</p>${table('review', ['Account', 'Time', 'What', 'Asset', 'Amount', 'Value USDT', 'Set beside', 'Record'], body, "Nothing outside the account's scale.")}</section>`;
}

/** The page itself, its reads of the valued rows from REPORT_ROWS. */
async function writeReportOf(
  warehouse: Warehouse,
  path: string,
  content: { range: Window; valuation: Valuation; facts: ReportFacts; account?: string },
  read: Read,
): Promise<void> {
  const { range, valuation, facts, account } = content;
  const unpriced = await readUnpriced(warehouse, range, valuation, account, REPORT_ROWS);
  const { charts } = await monthly(read, valuation);
  const warningsList = await warnings(warehouse, range, facts, unpriced, account);
  const catalog = (await readCatalogVersion(warehouse))?.version ?? 'none';
  const holdings = await readHoldingsAtEnds(warehouse, range, account);
  const sections = [
    await totalsSection(read, valuation),
    `<section><h2>Warnings</h2>${warningList(warningsList)}</section>`,
    `<section><h2>Coverage</h2>${coverageTable(facts, valuation.timeZone)}</section>`,
    await completenessSection(warehouse, account, facts.completeness, holdings?.known),
    await reviewSection(warehouse, range, account, valuation.timeZone, facts.plausibility),
    holdingsSection(holdings, range, valuation),
    await residualsSection(warehouse, range, account),
    await transfersSection(read),
    await gainsSection(warehouse, read, valuation),
    await summarySection(read, valuation),
    `<section class="charts"><h2>By month</h2>${charts.join('\n')}</section>`,
    await largestSection(read, valuation),
  ];
  const period = `${facts.taxYear === undefined ? '' : `${facts.taxYear}: `}${formatRange(range, valuation.timeZone)}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Year-end report, ${escape(period)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<style>${REPORT_STYLE}</style></head>
<body>
<header><h1>Year-end report</h1>
<p class="meta">${account === undefined ? '' : `Account <b>${escape(account)}</b> · `}<b id="period">${escape(period)}</b> (${escape(valuation.timeZone)})${toDate(facts)} · values in ${escape(valuation.fiat ?? 'USDT')}${fiatSourceWords(valuation)} · ledgerpipe ${escape(packageVersion())} · type catalog ${escape(catalog.slice(0, 12))}</p></header>
${sections.filter((s) => s !== '').join('\n')}
<footer>Written by ledgerpipe from the warehouse's records and the platform's hourly candles${valuation.fiat !== null && valuation.fiatSource === 'ecb' ? ", with the European Central Bank's euro reference rates" : ''} (docs/values.md).</footer>
</body></html>
`;
  await writeFile(path, html);
}

/** Coverage per account and stream, as dates in words. */
function coverageTable(facts: ReportFacts, timeZone: string): string {
  const spans = (list: readonly Window[]) => list.map((w) => formatRange(w, timeZone)).join('; ');
  const body = facts.coverage.map(
    (c) =>
      `<tr class="${c.gaps.length > 0 ? 'gap' : ''}">${[cell(c.account), cell(c.stream), cell(spans(c.covered)), cell(c.gaps.length === 0 ? 'none' : spans(c.gaps))].join('')}</tr>`,
  );
  return table('coverage', ['Account', 'Stream', 'Covered', 'Gaps'], body, 'No stream was checked.');
}
