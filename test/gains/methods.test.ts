import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { param, runModel, withParams } from '../../src/warehouse/sql-graph.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';
import { disposalRows, lotRows, plain, runEngine, trade, type GoldenRow } from './engine-helpers.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => ({ warehouse, dir, dispose } = await tempWarehouse()));
afterEach(async () => dispose());

// Worked by hand: 1 BTC for 100, 1 for 300, 2 for 400 (200 each); then 1.5 sold for 600.
// FIFO:    1 of Jan (cost 100, proceeds 400) + 0.5 of Feb (150, 200): gain 350; left 0.5 of Feb (150), 2 of Mar (400).
// HIFO:    1 of Feb (unit 300: cost 300) + 0.5 of Mar (unit 200: 100): gain 200; left 1 of Jan (100), 1.5 of Mar (300).
// average: 1.5 x 800 / 4 = 300: gain 300; left a pool of 2.5 at 500.
const BOOK: GoldenRow[] = [
  ...trade('2025-01-01T10:00:00Z', 'BTC', '1', '100', 'buy', 'EUR'),
  ...trade('2025-02-01T10:00:00Z', 'BTC', '1', '300', 'buy', 'EUR'),
  ...trade('2025-03-01T10:00:00Z', 'BTC', '2', '400', 'buy', 'EUR'),
  ...trade('2025-04-01T10:00:00Z', 'BTC', '1.5', '600', 'sell', 'EUR'),
];
const COLUMNS =
  "match_rule, quantity, strftime(acquired_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS acquired, holding_days, proceeds, cost, gain, term";

describe('fifo, hifo and average on one book', () => {
  it('fifo takes the oldest lots first', async () => {
    await runEngine(warehouse, BOOK, { fiat: 'EUR', costBasis: 'fifo' });
    expect(await disposalRows(warehouse, COLUMNS)).toEqual([
      {
        match_rule: 'fifo',
        quantity: '1',
        acquired: '2025-01-01',
        holding_days: '90',
        proceeds: '400',
        cost: '100',
        gain: '300',
        term: 'short',
      },
      {
        match_rule: 'fifo',
        quantity: '0.5',
        acquired: '2025-02-01',
        holding_days: '59',
        proceeds: '200',
        cost: '150',
        gain: '50',
        term: 'short',
      },
    ]);
    expect(await lotRows(warehouse)).toEqual([
      { account: 'default', asset: 'BTC', quantity: '0.5', cost: '150', acquired: '2025-02-01' },
      { account: 'default', asset: 'BTC', quantity: '2', cost: '400', acquired: '2025-03-01' },
    ]);
  });

  it('hifo takes the highest unit cost first', async () => {
    await runEngine(warehouse, BOOK, { fiat: 'EUR', costBasis: 'hifo' });
    expect(await disposalRows(warehouse, COLUMNS)).toEqual([
      {
        match_rule: 'hifo',
        quantity: '1',
        acquired: '2025-02-01',
        holding_days: '59',
        proceeds: '400',
        cost: '300',
        gain: '100',
        term: 'short',
      },
      {
        match_rule: 'hifo',
        quantity: '0.5',
        acquired: '2025-03-01',
        holding_days: '31',
        proceeds: '200',
        cost: '100',
        gain: '100',
        term: 'short',
      },
    ]);
    expect(await lotRows(warehouse)).toEqual([
      { account: 'default', asset: 'BTC', quantity: '1', cost: '100', acquired: '2025-01-01' },
      { account: 'default', asset: 'BTC', quantity: '1.5', cost: '300', acquired: '2025-03-01' },
    ]);
  });

  it('average takes the pool at its average cost', async () => {
    await runEngine(warehouse, BOOK, { fiat: 'EUR', costBasis: 'average', pool: 'all' });
    expect(await disposalRows(warehouse, COLUMNS)).toEqual([
      {
        match_rule: 'average',
        quantity: '1.5',
        acquired: null,
        holding_days: null,
        proceeds: '600',
        cost: '300',
        gain: '300',
        term: null,
      },
    ]);
    expect(await lotRows(warehouse)).toEqual([
      { account: 'all', asset: 'BTC', quantity: '2.5', cost: '500', acquired: null },
    ]);
  });

  it('calls a disposal more than a calendar year after its acquisition long, and one a year to the day short', async () => {
    await runEngine(
      warehouse,
      [
        ...trade('2024-02-29T10:00:00Z', 'ETH', '2', '2000', 'buy', 'EUR'),
        ...trade('2025-02-28T10:00:00Z', 'ETH', '1', '1500', 'sell', 'EUR'),
        ...trade('2025-03-01T10:00:00Z', 'ETH', '1', '1600', 'sell', 'EUR'),
      ],
      { fiat: 'EUR' },
    );
    expect(await disposalRows(warehouse, 'holding_days, term, gain')).toEqual([
      { holding_days: '365', term: 'short', gain: '500' },
      { holding_days: '366', term: 'long', gain: '600' },
    ]);
  });
});

describe('what the lots cannot explain', () => {
  it('gives a disposal larger than the lots zero cost for the rest, flagged, and counts it', async () => {
    const result = await runEngine(
      warehouse,
      [
        ...trade('2025-01-01T10:00:00Z', 'SOL', '1', '100', 'buy', 'EUR'),
        ...trade('2025-02-01T10:00:00Z', 'SOL', '3', '600', 'sell', 'EUR'),
      ],
      { fiat: 'EUR' },
    );
    expect(await disposalRows(warehouse, 'match_rule, quantity, proceeds, cost, gain, flags')).toEqual([
      { match_rule: 'fifo', quantity: '1', proceeds: '200', cost: '100', gain: '100', flags: '' },
      { match_rule: 'unmatched', quantity: '2', proceeds: '400', cost: '0', gain: '400', flags: 'no_acquisition' },
    ]);
    expect([
      result.unmatched,
      Object.fromEntries([...result.unmatchedByAsset].map(([a, q]) => [a, String(q)])),
    ]).toEqual([1, { SOL: '2000000000000000000' }]);
    expect(await rows(warehouse, 'SELECT asset, term, disposals, unmatched, gain FROM gains_summary')).toEqual([
      { asset: 'SOL', term: 'short', disposals: '1', unmatched: '0', gain: '100.000000000000000000' },
      { asset: 'SOL', term: 'unknown', disposals: '1', unmatched: '1', gain: '400.000000000000000000' },
    ]);
  });

  it('takes opening lots from --opening-lots before the ledger, and refuses a cost in another currency', async () => {
    const file = join(dir, 'opening.csv');
    await writeFile(file, 'account,asset,quantity,cost,currency,acquired_at\ndefault,SOL,2,50,EUR,2023-05-01\n');
    await runEngine(warehouse, trade('2025-02-01T10:00:00Z', 'SOL', '3', '600', 'sell', 'EUR'), {
      fiat: 'EUR',
      openingLots: file,
    });
    expect(
      await disposalRows(
        warehouse,
        "match_rule, quantity, strftime(acquired_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS acquired, cost, term, flags",
      ),
    ).toEqual([
      { match_rule: 'fifo', quantity: '2', acquired: '2023-05-01', cost: '50', term: 'long', flags: '' },
      { match_rule: 'unmatched', quantity: '1', acquired: null, cost: '0', term: 'unknown', flags: 'no_acquisition' },
    ]);
    await writeFile(file, 'account,asset,quantity,cost,currency,acquired_at\ndefault,SOL,2,50,USD,2023-05-01\n');
    await expect(runEngine(warehouse, [], { fiat: 'EUR', openingLots: file })).rejects.toThrow(
      'the opening lots are in USD, but the gains are now in EUR (the fiat setting); give --opening-lots again with each cost in EUR',
    );
  });

  it("moves no lot on a transfer between the account's own wallets, and lets a withdrawal take lots out without a gain", async () => {
    await runEngine(
      warehouse,
      [
        ...trade('2025-01-01T10:00:00Z', 'BTC', '2', '100', 'buy', 'EUR'),
        {
          ts: '2025-01-02T10:00:00Z',
          asset: 'BTC',
          amount: '-1',
          value: '-80',
          category: 'transfer_out',
          taxClass: 'internal_transfer',
        },
        {
          ts: '2025-01-02T10:00:01Z',
          asset: 'BTC',
          amount: '1',
          value: '80',
          category: 'transfer_in',
          taxClass: 'internal_transfer',
        },
        {
          ts: '2025-01-03T10:00:00Z',
          asset: 'BTC',
          amount: '-0.5',
          value: '-45',
          category: 'withdrawal',
          taxClass: 'external_withdrawal',
        },
      ],
      { fiat: 'EUR' },
    );
    expect(await disposalRows(warehouse, 'match_rule, quantity, proceeds, cost, gain')).toEqual([
      { match_rule: 'withdrawal_fifo', quantity: '0.5', proceeds: null, cost: '25', gain: null },
    ]);
    expect(await lotRows(warehouse)).toEqual([
      { account: 'default', asset: 'BTC', quantity: '1.5', cost: '75', acquired: '2025-01-01' },
    ]);
    expect(await rows(warehouse, 'SELECT count(*) AS n FROM gains_summary')).toEqual([{ n: '0' }]);
  });
});

describe('withdrawals', () => {
  it('with --withdrawals disposal, disposes of the coins withdrawn at their value, flagged withdrawal', async () => {
    await runEngine(
      warehouse,
      [
        ...trade('2025-01-01T10:00:00Z', 'BTC', '2', '100', 'buy', 'EUR'),
        {
          ts: '2025-01-03T10:00:00Z',
          asset: 'BTC',
          amount: '-0.5',
          value: '-45',
          category: 'withdrawal',
          taxClass: 'external_withdrawal',
        },
      ],
      { fiat: 'EUR', withdrawals: 'disposal' },
    );
    expect(await disposalRows(warehouse, 'match_rule, quantity, proceeds, cost, gain, flags')).toEqual([
      { match_rule: 'fifo', quantity: '0.5', proceeds: '45', cost: '25', gain: '20', flags: 'withdrawal' },
    ]);
    expect(await lotRows(warehouse)).toEqual([
      { account: 'default', asset: 'BTC', quantity: '1.5', cost: '75', acquired: '2025-01-01' },
    ]);
  });
});

describe('invariants', () => {
  it('per account and asset, the open lots hold what the ledger holds, and the proceeds add up to the values received', async () => {
    const book: GoldenRow[] = [];
    // Twenty days of trades in two tokens and two accounts, quantities and prices with many decimals.
    for (let d = 1; d <= 20; d++) {
      const day = `2025-03-${String(d).padStart(2, '0')}`;
      for (const [account, token] of [
        ['a', 'BTC'],
        ['b', 'ETH'],
        ['a', 'ETH'],
      ] as const) {
        book.push(
          ...trade(`${day}T0${d % 9}:00:00Z`, token, `${d}.123456789012345678`, `${d * 97}.33`, 'buy', 'EUR').map(
            (r) => ({ ...r, account }),
          ),
        );
        if (d % 3 === 0)
          book.push(
            ...trade(`${day}T12:00:00Z`, token, `${d}.7`, `${d * 131}.07`, 'sell', 'EUR').map((r) => ({
              ...r,
              account,
            })),
          );
      }
    }
    for (const costBasis of ['fifo', 'hifo', 'average', 'uk'] as const) {
      await runEngine(warehouse, book, { fiat: 'EUR', costBasis, pool: 'account' });
      const held = await rows(
        warehouse,
        `
        SELECT g.account, g.asset, sum(g.amount) AS ledger, (SELECT sum(quantity) FROM lots AS l WHERE l.account = g.account AND l.asset = g.asset) AS lots
        FROM golden AS g WHERE g.asset <> 'EUR' GROUP BY ALL ORDER BY ALL`,
      );
      for (const h of held)
        expect(plain(h['lots'] ?? null), `${costBasis} ${h['account']} ${h['asset']}`).toBe(plain(h['ledger'] ?? null));
      const proceeds = await rows(
        warehouse,
        `
        SELECT (SELECT sum(proceeds) FROM disposals) AS proceeds,
               (SELECT sum(amount) FROM golden WHERE asset = 'EUR' AND amount > 0) AS received`,
      );
      expect(plain(proceeds[0]?.['proceeds'] ?? null), costBasis).toBe(plain(proceeds[0]?.['received'] ?? null));
    }
  });

  it('gives the same tables twice', async () => {
    const book = [...BOOK, ...trade('2025-05-01T10:00:00Z', 'BTC', '0.3', '99.99', 'sell', 'EUR')];
    const snapshot = async () =>
      JSON.stringify([await rows(warehouse, 'FROM disposals'), await rows(warehouse, 'FROM lots')]);
    await runEngine(warehouse, book, { fiat: 'EUR', costBasis: 'uk' });
    const first = await snapshot();
    await runEngine(warehouse, book, { fiat: 'EUR', costBasis: 'uk' });
    expect(await snapshot()).toBe(first);
  });
});

describe('Form 8949', () => {
  it('writes one row per disposal slice: part, description, dates, proceeds and basis in cents, gain', async () => {
    await runEngine(
      warehouse,
      [
        ...trade('2024-01-10T10:00:00Z', 'BTC', '1', '100.005', 'buy', 'USD'),
        ...trade('2025-03-01T10:00:00Z', 'BTC', '0.25', '50', 'buy', 'USD'),
        ...trade('2025-04-01T10:00:00Z', 'BTC', '1.125', '1000.126', 'sell', 'USD'),
      ],
      { fiat: 'USD' },
    );
    const c = warehouse.connection;
    const range = {
      lp_from: param.instant(Date.UTC(2025, 0, 1)),
      lp_to: param.instant(Date.UTC(2026, 0, 1)),
      lp_account: param.text(undefined),
    };
    // The view reads the range when it is read (the export copies it with the range bound).
    const found = await withParams(c, range, async () => {
      await runModel(c, 'exports/form8949.sql');
      return rows(warehouse, 'SELECT * FROM lp_export_form8949');
    });
    expect(found).toEqual([
      // 0.125 of the March lot (cost 25) for 1000.126 x 0.125 / 1.125 = 111.125111...: short term.
      {
        part: 'I',
        description: '0.125 BTC',
        date_acquired: '03/01/2025',
        date_sold: '04/01/2025',
        proceeds: '111.13',
        cost_basis: '25.00',
        adjustment_code: '',
        adjustment_amount: '',
        gain_or_loss: '86.13',
        unit: 'USD',
        account: 'default',
        flags: '',
      },
      // The whole January 2024 lot (cost 100.005, to 100.01): held more than a year, long term.
      {
        part: 'II',
        description: '1 BTC',
        date_acquired: '01/10/2024',
        date_sold: '04/01/2025',
        proceeds: '889.00',
        cost_basis: '100.01',
        adjustment_code: '',
        adjustment_amount: '',
        gain_or_loss: '788.99',
        unit: 'USD',
        account: 'default',
        flags: '',
      },
    ]);
  });
});
