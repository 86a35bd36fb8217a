import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, simEnv } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';
import { formatDecimal } from '../../src/report/format.js';

// Debian's chromium, installed by test/setup/install-browser.sh (which .ci/run calls).
const CHROMIUM = process.env['LEDGERPIPE_CHROMIUM'] ?? '/usr/bin/chromium';

let dir: string;
let sim: Simulator;
let out: string;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-report-'));
  out = join(dir, 'out');
  sim = await startSimulator({
    seed: 'report',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 3, 1),
    records: 300,
    rateScale: 100,
    pendingMs: 0,
  });
  const env = simEnv(sim.credentials);
  const run = await runCliHere(
    [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-04-01',
      '--base-url',
      sim.baseUrl,
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      out,
      '--rate-scale',
      '100',
      '--fiat',
      'EUR',
      '--quiet',
    ],
    { env },
  );
  expect([run.status, run.stderr]).toEqual([0, '']);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('report.html in a real browser', () => {
  it('opens from disk with no script, no network and no console error; charts drawn; totals equal year_summary', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const url = pathToFileURL(join(out, 'report.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.locator('script').count()).toBe(0);
    for (const id of ['realized-pnl', 'fees', 'funding'])
      expect(await page.locator(`#chart-${id} svg path`).count(), id).toBeGreaterThan(5);

    // The range as dates, in words.
    expect(await page.locator('#period').textContent()).toBe('1 January 2025 to 31 March 2025');

    // The per-asset table, cell by cell, against year_summary.csv of the same run: exact in data-exact, shown
    // rounded with thousands separators, the tax class in words.
    const [header, ...csv] = (await readFile(join(out, 'year_summary.csv'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    const col = (name: string) => header!.indexOf(name);
    const expected = csv.map((r) => [
      r[col('account')],
      r[col('year')],
      r[col('asset')],
      r[col('tax_class')],
      r[col('amount')],
      r[col('value_usdt')],
      r[col('value_eur')],
      r[col('entries')],
      r[col('unpriced_entries')],
    ]);
    const onPage = await page
      .locator('#year-summary tbody tr')
      .evaluateAll((rows) =>
        rows.map((tr) =>
          [...tr.querySelectorAll('td')].map(
            (td) => td.getAttribute('data-exact') ?? td.getAttribute('data-tax-class') ?? td.textContent ?? '',
          ),
        ),
      );
    expect(onPage).toEqual(expected);
    const shown = await page
      .locator('#year-summary tbody tr td.value-fiat')
      .evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-exact') ?? '', td.textContent ?? '']));
    expect(shown.length).toBeGreaterThan(10);
    for (const [exact, text] of shown)
      expect(text, exact).toBe(exact === '' ? '' : formatDecimal(exact as string, 2, true));
    expect(shown.some(([, text]) => /^-?\d{1,3}(,\d{3})+\.\d\d$/.test(text as string))).toBe(true);

    // The totals, per tax class of the tax files, in EUR: each the exact sum of ledger_valued of its class; fee
    // rebates are trading fees, not income; no internal transfer is among them or among the largest movements.
    const classes = async (sql: string) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        return (await rows(warehouse, sql)).map((r) => Object.values(r).map(String));
      } finally {
        await warehouse.close();
      }
    };
    const totals = await classes(
      `SELECT t.tax_class, coalesce(lp_decimal_text(sum(v.value_eur)), '') FROM ledger_valued AS v JOIN category_meaning AS m USING (category) JOIN tax_classes AS t ON t.tax_class = m.tax_class
       WHERE t.in_tax_files AND v.ts >= TIMESTAMPTZ '2025-01-01 00:00:00+00' AND v.ts < TIMESTAMPTZ '2025-04-01 00:00:00+00' GROUP BY t.tax_class HAVING count(*) = count(v.value_eur) ORDER BY min(t.rowid)`,
    );
    const totalsOnPage = await page
      .locator('#totals tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.querySelector('td')?.getAttribute('data-tax-class') ?? '',
          tr.querySelector('td.total')?.getAttribute('data-exact') ?? '',
        ]),
      );
    expect(totalsOnPage.filter(([, total]) => total !== '')).toEqual(totals);
    expect(totalsOnPage.map(([c]) => c)).not.toContain('internal_transfer');
    expect(
      await classes(
        "SELECT category, tax_class FROM category_meaning WHERE category IN ('fee_rebate', 'copy_trade_refund') ORDER BY 1",
      ),
    ).toEqual([
      ['copy_trade_refund', 'trading_fee'],
      ['fee_rebate', 'trading_fee'],
    ]);
    const largestClasses = await page
      .locator('#largest tbody tr td[data-tax-class]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-tax-class')));
    expect(largestClasses).toHaveLength(20);
    const inFiles = new Set((await classes('SELECT tax_class FROM tax_classes WHERE in_tax_files')).map(([c]) => c));
    expect(largestClasses.filter((c) => !inFiles.has(c as string))).toEqual([]);

    // No two texts of a chart overlap (the title, the axes' labels).
    for (const id of ['realized-pnl', 'fees', 'funding']) {
      const boxes = await page.locator(`#chart-${id} svg text`).evaluateAll((texts) =>
        texts
          .filter((t) => (t.textContent ?? '').trim() !== '')
          .map((t) => {
            const r = t.getBoundingClientRect();
            return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          }),
      );
      expect(boxes.length, id).toBeGreaterThan(5);
      const overlapping = boxes.flatMap((a, i) =>
        boxes
          .slice(i + 1)
          .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          .map((b) => `${a.text} / ${b.text}`),
      );
      expect(overlapping, id).toEqual([]);
    }
    expect(await page.locator('#chart-fees svg text').allTextContents()).toContain('Fees by month (EUR)');
    // Every warning is of a kind the README lists; EUR of the fiat deposits has no USDT price.
    const warnings = await page.locator('#warnings li').allTextContents();
    expect(warnings.filter((w) => !/^(Gap|Not final|Unpriced|Unreviewed type): /.test(w))).toEqual([]);
    expect(warnings.filter((w) => w.startsWith('Unpriced'))).toEqual([
      expect.stringMatching(/^Unpriced: \d+ EUR movements have no USDT price/),
    ]);

    // Holdings: a table for each end of the range, dated as an accountant dates them, the rows of the holdings view
    // cell for cell (exact in data-exact), and under each the exact total of the values known.
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    const holdingsAt = async (instant: string) =>
      (
        await rows(
          warehouse,
          `SELECT account, account_type, asset, coalesce(lp_decimal_text(quantity), 'not known') AS quantity,
             coalesce(lp_decimal_text(value_usdt), '') AS value_usdt, coalesce(lp_decimal_text(value_eur), '') AS value_eur, source
           FROM holdings WHERE as_of = TIMESTAMPTZ '${instant}' ORDER BY account, account_type, asset`,
        )
      ).map((r) => Object.values(r).map(String));
    const totalAt = async (instant: string) =>
      (
        await rows(
          warehouse,
          `SELECT lp_decimal_text(sum(value_usdt)) AS usdt, lp_decimal_text(sum(value_eur)) AS eur FROM holdings WHERE as_of = TIMESTAMPTZ '${instant}'`,
        )
      )[0];
    let opening: string[][],
      closing: string[][],
      openingTotal: Record<string, string | null> | undefined,
      closingTotal: Record<string, string | null> | undefined;
    try {
      [opening, closing] = [await holdingsAt('2025-01-01 00:00:00+00'), await holdingsAt('2025-04-01 00:00:00+00')];
      [openingTotal, closingTotal] = [await totalAt('2025-01-01 00:00:00+00'), await totalAt('2025-04-01 00:00:00+00')];
    } finally {
      await warehouse.close();
    }
    expect(opening.length + closing.length).toBeGreaterThan(10);
    expect([...opening, ...closing].some((h) => h[6] === 'running balance')).toBe(true);
    expect(await page.locator('#holdings-opening-title').textContent()).toBe(
      'Held at the start: start of 1 January 2025',
    );
    expect(await page.locator('#holdings-closing-title').textContent()).toBe('Held at the end: end of 31 March 2025');
    const cellsOf = (id: string) =>
      page
        .locator(`#${id} tbody tr`)
        .evaluateAll((trs) =>
          trs.map((tr) =>
            [...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-exact') ?? td.textContent ?? ''),
          ),
        );
    expect(await cellsOf('holdings-opening')).toEqual(opening);
    expect(await cellsOf('holdings-closing')).toEqual(closing);
    const footOf = (id: string) =>
      page.locator(`#${id} tfoot td.num`).evaluateAll((tds) => tds.map((td) => td.getAttribute('data-exact')));
    expect(await footOf('holdings-opening')).toEqual([openingTotal?.['usdt'], openingTotal?.['eur']]);
    expect(await footOf('holdings-closing')).toEqual([closingTotal?.['usdt'], closingTotal?.['eur']]);
    const notKnownAtEnd = closing.filter((h) => h[3] === 'not known').length;
    const unpricedAtEnd = closing.filter((h) => h[3] !== 'not known' && h[4] === '').length;
    expect([notKnownAtEnd, unpricedAtEnd].every((n) => n > 0)).toBe(true);
    expect(await page.locator('#holdings-closing tfoot td').first().textContent()).toBe(
      `Total of the values known (${notKnownAtEnd} not known: in no total; ${unpricedAtEnd} without a USDT price: not in the USDT total)`,
    );
    // Completeness: nothing dropped, so every running balance agrees; one run took one snapshot, so no pair of
    // snapshots was set against the ledger, and the headline says so, with the holdings not known.
    expect(await page.locator('#complete').textContent()).toMatch(
      /^The records agree with every running balance: \d+ running-balance steps checked(, \d+ not \([^)]*\))?; only one balance snapshot was read, so none was set against the ledger: a later run takes a second\.$/,
    );
    const notKnown = [...opening, ...closing].filter((h) => h[3] === 'not known').length;
    expect(await page.locator('.not-compared').allTextContents()).toEqual(
      notKnown === 0
        ? []
        : [
            `${notKnown} of the ${opening.length + closing.length} holdings at the range's ends are not known: no snapshot at that instant, nor a running balance to carry one there (listed under holdings).`,
          ],
    );
    expect(await page.locator('#transfers-paired').count()).toBe(1);

    // Gains: the rows of gains_summary of the range's year (the warehouse holds the history before it too, read for
    // the cost basis: docs/history.md), cell for cell, exact in data-exact.
    const summaryWarehouse = await openWarehouse(join(dir, 'w.duckdb'));
    let gains: string[][];
    try {
      gains = (
        await rows(
          summaryWarehouse,
          `SELECT account, asset, tax_year, term, disposals, lp_decimal_text(proceeds), lp_decimal_text(cost), lp_decimal_text(fees), lp_decimal_text(gain), unmatched
           FROM gains_summary WHERE tax_year = '2025' ORDER BY account, asset, tax_year, term`,
        )
      ).map((r) => Object.values(r).map(String));
    } finally {
      await summaryWarehouse.close();
    }
    expect(gains.length).toBeGreaterThan(3);
    const gainsOnPage = await page.locator('#gains tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll('td')];
        const unmatched = /^(\d+) with nothing to match$/.exec(cells[9]?.textContent ?? '')?.[1] ?? '0';
        return [...cells.slice(0, 9).map((td) => td.getAttribute('data-exact') ?? td.textContent ?? ''), unmatched];
      }),
    );
    expect(gainsOnPage).toEqual(gains);
    // Under them, their totals: the exact sums of the rows.
    const gainsTotals = await page
      .locator('#gains tfoot td.num')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-exact') ?? td.textContent ?? ''));
    const sum = (i: number) => {
      const scaled = gains.map((g) => {
        const [whole = '0', fraction = ''] = (g[i] as string).split('.');
        return BigInt(`${whole}${fraction.padEnd(18, '0')}`.replace(/^(-?)0+(?=\d)/, '$1'));
      });
      return scaled.reduce((a, b) => a + b, 0n);
    };
    const exact = (text: string) => {
      const [whole = '0', fraction = ''] = text.split('.');
      return BigInt(`${whole}${fraction.padEnd(18, '0')}`.replace(/^(-?)0+(?=\d)/, '$1'));
    };
    expect(gainsTotals.slice(1).map(exact)).toEqual([5, 6, 7, 8].map(sum));
    expect(Number(gainsTotals[0])).toBe(gains.reduce((n, g) => n + Number(g[4]), 0));

    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: join('test-results', 'report.png'), fullPage: true });
    await page
      .locator('section', { has: page.locator('h2', { hasText: 'Holdings' }) })
      .screenshot({ path: join('test-results', 'report-holdings.png') });
    await page
      .locator('section', { has: page.locator('h2', { hasText: 'Completeness' }) })
      .screenshot({ path: join('test-results', 'report-completeness.png') });
    await page.emulateMedia({ media: 'print' });
    // The print stylesheet applies: the page's width limit is lifted for the paper.
    expect(
      await page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).maxWidth),
    ).toBe('none');
    await page.close();
  }, 60_000);
});
