import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess, simEnv } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

// Debian's chromium, installed by test/setup/install-browser.sh (which .ci/run calls).
const CHROMIUM = process.env['LEDGERPIPE_CHROMIUM'] ?? '/usr/bin/chromium';

let dir: string;
let sim: Simulator;
let out: string;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-report-'));
  out = join(dir, 'out');
  sim = await startSimulator({ seed: 'report', from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 3, 1), records: 300, rateScale: 100, pendingMs: 0 });
  const env = simEnv(sim.credentials);
  const run = await runCliProcess(['run', 'year-end', '--from', '2025-01-01', '--to', '2025-04-01', '--base-url', sim.baseUrl, '--db', join(dir, 'w.duckdb'), '--out', out, '--rate-scale', '100', '--fiat', 'EUR', '--quiet'], { env });
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
    for (const id of ['realized-pnl', 'fees', 'funding']) expect(await page.locator(`#chart-${id} svg path`).count(), id).toBeGreaterThan(5);

    // The per-asset table, cell by cell, against year_summary.csv of the same run.
    const [header, ...csv] = (await readFile(join(out, 'year_summary.csv'), 'utf8')).trimEnd().split('\n').map((l) => l.split(','));
    const col = (name: string) => header!.indexOf(name);
    const expected = csv.map((r) => [r[col('account')], r[col('year')], r[col('asset')], r[col('tax_class')], r[col('amount')], r[col('value_usdt')], r[col('value_eur')], r[col('entries')], r[col('unpriced_entries')]]);
    const onPage = await page.locator('#year-summary tbody tr').evaluateAll((rows) => rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(onPage).toEqual(expected);
    // Every warning is of a kind the README lists; EUR of the fiat deposits has no USDT price.
    const warnings = await page.locator('#warnings li').allTextContents();
    expect(warnings.filter((w) => !/^(Gap|Not final|Unpriced|Unreviewed type): /.test(w))).toEqual([]);
    expect(warnings.filter((w) => w.startsWith('Unpriced'))).toEqual([expect.stringMatching(/^Unpriced: \d+ EUR movements have no USDT price/)]);

    // Holdings: the rows of the holdings view at the range's start and end, cell for cell.
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    let holdings: string[][];
    try {
      holdings = (
        await rows(
          warehouse,
          `SELECT account, strftime("at", '%Y-%m-%dT%H:%M:%S.000Z') AS at_text, account_type, asset, coalesce(lp_decimal_text(quantity), 'not known') AS quantity,
             coalesce(lp_decimal_text(value_usdt), '') AS value_usdt, coalesce(lp_decimal_text(value_eur), '') AS value_eur, source
           FROM holdings WHERE "at" IN (TIMESTAMPTZ '2025-01-01 00:00:00+00', TIMESTAMPTZ '2025-04-01 00:00:00+00') ORDER BY account, "at", account_type, asset`,
        )
      ).map((r) => Object.values(r).map(String));
    } finally {
      await warehouse.close();
    }
    expect(holdings.length).toBeGreaterThan(10);
    expect(holdings.some((h) => h[7] === 'running balance')).toBe(true);
    expect(await page.locator('#holdings tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))).toEqual(holdings);
    // Completeness: nothing dropped, so every chain and snapshot agrees and every transfer has its other side.
    expect(await page.locator('#complete').textContent()).toMatch(/^Every running balance and every snapshot agrees with the records: \d+ running-balance steps checked/);
    expect(await page.locator('#transfers-paired').count()).toBe(1);

    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: join('test-results', 'report.png'), fullPage: true });
    await page.locator('section', { has: page.locator('h2', { hasText: 'Holdings' }) }).screenshot({ path: join('test-results', 'report-holdings.png') });
    await page.locator('section', { has: page.locator('h2', { hasText: 'Completeness' }) }).screenshot({ path: join('test-results', 'report-completeness.png') });
    await page.emulateMedia({ media: 'print' });
    // The print stylesheet applies: the page's width limit is lifted for the paper.
    expect(await page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).maxWidth)).toBe('none');
    await page.close();
  }, 60_000);
});
