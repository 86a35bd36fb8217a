import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastFullYear } from '../../src/cli/commands/sim.js';
import { exportFiles } from '../../src/export/exporter.js';
import { generateDataset } from '../../src/sim/data/dataset.js';
import { runTransforms } from '../../src/transform/runner.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { loadDataset, loadRaw, rows } from '../helpers/raw.js';
import { cointrackingNets, koinlyNets, ledgerNets, netLines, parseCsv } from '../helpers/tax-files.js';
import { GOLDEN, T } from './fixtures.js';

/** A warehouse in a temporary folder, transformed, with koinly.csv and cointracking.csv of `[from, to)` written. */
async function exported(
  load: (w: Warehouse) => Promise<void>,
  from: number,
  to: number,
): Promise<{ warehouse: Warehouse; koinly: string; cointracking: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-balance-'));
  const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
  await load(warehouse);
  await runTransforms(warehouse);
  await exportFiles(warehouse, { out: join(dir, 'out'), from, to, formats: ['koinly', 'cointracking'] });
  return {
    warehouse,
    koinly: await readFile(join(dir, 'out', 'koinly.csv'), 'utf8'),
    cointracking: await readFile(join(dir, 'out', 'cointracking.csv'), 'utf8'),
    dispose: async () => {
      await warehouse.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every ledger row is in exactly one tax row, or listed in tax_export_excluded: none is lost, none counted twice. */
async function accountedFor(warehouse: Warehouse): Promise<Record<string, string | null>[]> {
  return rows(
    warehouse,
    `SELECT
       (SELECT count(*) FROM ledger ANTI JOIN tax_export_entries USING (account, entry_id) ANTI JOIN tax_export_excluded USING (account, entry_id)) AS lost,
       (SELECT count(*) FROM (SELECT account, entry_id FROM tax_export_entries GROUP BY ALL HAVING count(*) > 1)) AS twice,
       (SELECT count(*) FROM tax_export_entries SEMI JOIN tax_export_excluded USING (account, entry_id)) AS both`,
  );
}

const year = lastFullYear(Date.UTC(2026, 5, 1));

describe('the import-balance invariant: each tool, reading its file as its help says, moves every balance as the ledger does', () => {
  // The demo's seed and year, and two more.
  it.each([['demo'], ['balance-b'], ['balance-c']])('holds for the simulator year of seed %s', async (seed) => {
    const dataset = generateDataset({ seed, ...year, records: 2000, marginWindowDays: 366 });
    const { warehouse, koinly, cointracking, dispose } = await exported(
      (w) => loadDataset(w, dataset, year.from, year.to),
      year.from,
      year.to,
    );
    try {
      const ledger = netLines(await ledgerNets(warehouse, year.from, year.to));
      expect(ledger.length).toBeGreaterThan(6);
      expect(netLines(koinlyNets(koinly))).toEqual(ledger);
      expect(netLines(cointrackingNets(cointracking))).toEqual(ledger);
      expect(await accountedFor(warehouse)).toEqual([{ lost: '0', twice: '0', both: '0' }]);
      // The simulator's undocumented types reach the files marked for review, never as income.
      const reviewed = parseCsv(cointracking).filter((r) =>
        (r[9] ?? '').startsWith('REVIEW (a type not in the catalog'),
      );
      expect(reviewed.length).toBeGreaterThan(0);
      expect(new Set(reviewed.map((r) => r[0]))).toEqual(
        new Set(['Deposit', 'Withdrawal'].filter((t) => reviewed.some((r) => r[0] === t))),
      );
    } finally {
      await dispose();
    }
  });

  it('holds for the hand-written records of every kind', async () => {
    const { warehouse, koinly, cointracking, dispose } = await exported((w) => loadRaw(w, GOLDEN), T, T + 3_600_000);
    try {
      const ledger = netLines(await ledgerNets(warehouse, T, T + 3_600_000));
      expect(netLines(koinlyNets(koinly))).toEqual(ledger);
      expect(netLines(cointrackingNets(cointracking))).toEqual(ledger);
      expect(await accountedFor(warehouse)).toEqual([{ lost: '0', twice: '0', both: '0' }]);
    } finally {
      await dispose();
    }
  });
});

describe("the demo's year in the tax files", () => {
  it('has no trade leg as Other Income or Other Fee, a tag on every fee, funding and interest row in koinly.csv, and no internal transfer in either file', async () => {
    const dataset = generateDataset({ seed: 'demo', ...year, records: 2000, marginWindowDays: 366 });
    const { warehouse, koinly, cointracking, dispose } = await exported(
      (w) => loadDataset(w, dataset, year.from, year.to),
      year.from,
      year.to,
    );
    try {
      const meaning = new Map(
        (await rows(warehouse, 'SELECT category, tax_class FROM category_meaning')).map((r) => [
          String(r['category']),
          String(r['tax_class']),
        ]),
      );
      // The category a row was written from: the first word of its Description or Comment, after any REVIEW note.
      const categoryOf = (text: string) => text.replace(/^REVIEW \(.*?\): /, '').split(' ')[0] as string;
      const ct = parseCsv(cointracking).slice(1);
      const ko = parseCsv(koinly).slice(1);
      const tradeRows = ct.filter((r) => categoryOf(r[9] as string) === 'trade');
      expect(tradeRows.length).toBeGreaterThan(100);
      expect(new Set(tradeRows.map((r) => r[0]))).toEqual(new Set(['Trade']));
      const legClasses = new Set(['trade_leg', 'conversion']);
      expect(
        ct.filter(
          (r) =>
            ['Other Income', 'Other Fee'].includes(r[0] as string) &&
            legClasses.has(meaning.get(categoryOf(r[9] as string)) ?? ''),
        ),
      ).toEqual([]);
      const tagged = new Set(['trading_fee', 'funding', 'interest_paid', 'interest_earned', 'other_fee']);
      const needTag = ko.filter((r) => tagged.has(meaning.get(categoryOf(r[10] as string)) ?? ''));
      expect(needTag.length).toBeGreaterThan(500);
      expect(needTag.filter((r) => r[9] === '')).toEqual([]);
      for (const file of [ko.map((r) => r[10] as string), ct.map((r) => r[9] as string)]) {
        expect(file.filter((text) => meaning.get(categoryOf(text)) === 'internal_transfer')).toEqual([]);
      }
      expect(
        await rows(
          warehouse,
          "SELECT count(*) > 0 AS has FROM ledger JOIN category_meaning USING (category) WHERE tax_class = 'internal_transfer'",
        ),
      ).toEqual([{ has: 'true' }]);
    } finally {
      await dispose();
    }
  });
});
