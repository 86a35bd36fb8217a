import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/report.js';
import { runTransforms } from '../../src/transform/runner.js';
import { readPlausibility, type Implausible } from '../../src/reads/plausibility.js';
import { applyValuation, NO_VALUATION } from '../../src/warehouse/values.js';
import { withRangeValued } from '../../src/reads/range-valued.js';
import { GOLDEN } from '../transform/fixtures.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';

let context: Awaited<ReturnType<typeof tempWarehouse>>;
let dir: string;
const range = { start: Date.UTC(2025, 0, 1), end: Date.UTC(2026, 0, 1) };

beforeAll(async () => {
  context = await tempWarehouse();
  dir = await mkdtemp(join(tmpdir(), 'lp-review-'));
  await loadRaw(context.warehouse, GOLDEN);
  await runTransforms(context.warehouse);
  await context.warehouse.transaction((c) => applyValuation(c, NO_VALUATION));
});
afterAll(async () => {
  await context.dispose();
  await rm(dir, { recursive: true, force: true });
});

const finding = (account: string, sourceId: string): Implausible => ({
  account,
  asset: 'BTC',
  ts: Date.UTC(2025, 5, 1),
  source: 'withdrawals',
  sourceId,
  finding: 'fee_above_1pct',
  amount: '-0.0005',
  valueUsdt: null,
  comparedWith: '0.005',
  comparedAs: 'the quantity withdrawn',
});

/** The records the page's review table lists, as `<source> <id>`. */
async function reviewed(facts: Parameters<typeof writeReport>[2]['facts'], account?: string): Promise<string[]> {
  const path = join(dir, `report-${account ?? 'all'}-${facts.plausibility === undefined ? 'read' : 'given'}.html`);
  await withRangeValued(context.warehouse, range, () =>
    writeReport(context.warehouse, path, {
      range,
      valuation: NO_VALUATION,
      facts,
      ...(account === undefined ? {} : { account }),
    }),
  );
  const html = await readFile(path, 'utf8');
  // The record is each row's last cell.
  return [...html.matchAll(/<tr data-finding="[^"]*">(.*?)<\/tr>/g)].map(
    (m) => [...(m[1] ?? '').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].at(-1)?.[1] ?? '',
  );
}

/** What the view plausibility lists of `range`, as [finding, source, record], largest value first. */
async function viewed(): Promise<string[][]> {
  const reader = await context.warehouse.connection.runAndReadAll(
    `SELECT finding, source, source_id FROM plausibility WHERE ts >= make_timestamptz(${range.start * 1000}) AND ts < make_timestamptz(${range.end * 1000})
     ORDER BY abs(value_usdt) DESC NULLS LAST, ts, source, source_id`,
  );
  return reader.getRows().map((r) => r.map(String));
}

describe("the report's review section", () => {
  it("shows the findings the run read, the page's account's only, without reading the view again", async () => {
    const plausibility = [finding('default', '7'), finding('other', '8')];
    expect(await reviewed({ coverage: [], plausibility }, 'default')).toEqual(['withdrawals 7']);
    expect(await reviewed({ coverage: [], plausibility }, 'other')).toEqual(['withdrawals 8']);
    expect(await reviewed({ coverage: [], plausibility })).toEqual(['withdrawals 7', 'withdrawals 8']);
  });

  it('reads the findings of its range when the run read none, those the view lists', async () => {
    const read = await withRangeValued(context.warehouse, range, () => readPlausibility(context.warehouse, range));
    expect(read.length).toBeGreaterThan(0);
    // Largest value first; findings of one value may come in either order, in both.
    expect(read.map((i) => [i.finding, i.source, i.sourceId]).sort()).toEqual((await viewed()).sort());
    expect(await reviewed({ coverage: [] })).toEqual(read.map((i) => `${i.source} ${i.sourceId}`));
    // They are read over the valued rows of the range held: never over rows valued eight times as they are read.
    await expect(readPlausibility(context.warehouse, range)).rejects.toThrow(
      "the findings' range is not the one whose valued rows are held (withRangeValued)",
    );
  });
});
