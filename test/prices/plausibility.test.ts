import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runModel } from '../../src/warehouse/sql-graph.js';
import { RANGE_VALUED, withRangeValued } from '../../src/reads/range-valued.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;
beforeEach(async () => ({ warehouse, dispose } = await tempWarehouse()));
afterEach(async () => dispose());

type Row = [
  entry: string,
  ts: string,
  asset: string,
  amount: string,
  source: string,
  sourceId: string,
  taxClass: string,
  valueUsdt: string | null,
  tradeGroup?: string,
];

/**
 * `ledger` as the valued ledger the view reads (lp_ledger_valued_rows(), as the gains tests put theirs), then the view
 * made by its own file, sql/values/60_plausibility.sql, and what it lists.
 */
async function plausibility(ledger: readonly Row[]): Promise<Record<string, string | null>[]> {
  const c = warehouse.connection;
  await c.run(
    'CREATE OR REPLACE TABLE golden (account VARCHAR, entry_id VARCHAR, ts TIMESTAMPTZ, asset VARCHAR, amount DECIMAL(38,18), source VARCHAR, source_id VARCHAR, tax_class VARCHAR, value_usdt DECIMAL(38,18), trade_group VARCHAR)',
  );
  for (const [entry, ts, asset, amount, source, sourceId, taxClass, value, group] of ledger) {
    await c.run(
      "INSERT INTO golden VALUES ('default', $1, $2::TIMESTAMPTZ, $3, $4::DECIMAL(38,18), $5, $6, $7, $8::DECIMAL(38,18), $9)",
      [entry, ts, asset, amount, source, sourceId, taxClass, value, group ?? null] as never,
    );
  }
  await c.run('CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE SELECT * FROM golden');
  // The balance before a range is the ledger's own sum (unvalued): the same rows.
  await c.run(
    'DROP VIEW IF EXISTS ledger; DROP TABLE IF EXISTS ledger; CREATE TABLE ledger AS SELECT account, entry_id, ts, asset, amount FROM golden',
  );
  await runModel(c, 'values/60_plausibility.sql');
  return rows(
    warehouse,
    'SELECT source_id, finding, lp_decimal_text(amount) AS amount, lp_decimal_text(compared_with) AS compared_with FROM plausibility ORDER BY ts, source_id',
  );
}

describe('plausibility (docs/review.md)', () => {
  it("lists each movement far outside the account's scale with the record and what it was set beside, and nothing else", async () => {
    const found = await plausibility([
      // A trade of 1,000 USDT for 0.01 BTC, its fee 5 USDT (0.5%): within scale.
      ['t1a', '2025-02-01 10:00:00+00', 'USDT', '-1000', 'spot_tax_records', '11', 'trade_leg', '-1000', 'g1'],
      ['t1b', '2025-02-01 10:00:00+00', 'BTC', '0.01', 'spot_tax_records', '12', 'trade_leg', '1000', 'g1'],
      ['t1f', '2025-02-01 10:00:00+00', 'USDT', '-5', 'spot_tax_records', '13', 'trading_fee', '-5', 'g1'],
      // The same trade with a fee of 20 USDT (2%): listed against the 1,000 USDT given.
      ['t2a', '2025-02-02 10:00:00+00', 'USDT', '-1000', 'spot_tax_records', '21', 'trade_leg', '-1000', 'g2'],
      ['t2b', '2025-02-02 10:00:00+00', 'BTC', '0.01', 'spot_tax_records', '22', 'trade_leg', '1000', 'g2'],
      ['t2f', '2025-02-02 10:00:00+00', 'USDT', '-20', 'spot_tax_records', '23', 'trading_fee', '-20', 'g2'],
      // A withdrawal of 0.005 BTC whose fee is 0.0005 (10%); one of 0.01 BTC with a fee of 0.00005 (0.5%) is within
      // scale.
      ['w1', '2025-03-01 10:00:00+00', 'BTC', '-0.005', 'withdrawals', '31', 'external_withdrawal', '-500'],
      ['w1f', '2025-03-01 10:00:00+00', 'BTC', '-0.0005', 'withdrawals', '31', 'withdrawal_fee', '-5'],
      ['w2', '2025-03-02 10:00:00+00', 'BTC', '-0.01', 'withdrawals', '32', 'external_withdrawal', '-1000'],
      ['w2f', '2025-03-02 10:00:00+00', 'BTC', '-0.00005', 'withdrawals', '32', 'withdrawal_fee', '-0.5'],
      // 0.00445 BTC left: interest of 0.0001 is fine; interest of 0.5 on 0.00455 is above the holding that earned it.
      ['i1', '2025-04-01 10:00:00+00', 'BTC', '0.0001', 'spot_tax_records', '41', 'interest_earned', '10'],
      ['i2', '2025-04-02 10:00:00+00', 'BTC', '0.5', 'spot_tax_records', '42', 'interest_earned', '50000'],
      // Fees paid in the 366 days before: 5 + 20 + 5 + 0.5 USDT. A refund of 3 is fine; one of 40 is above them.
      ['r1', '2025-05-01 10:00:00+00', 'USDT', '3', 'spot_tax_records', '51', 'trading_fee', '3'],
      ['r2', '2025-05-02 10:00:00+00', 'USDT', '40', 'spot_tax_records', '52', 'trading_fee', '40'],
    ]);
    expect(found).toEqual([
      { source_id: '23', finding: 'fee_above_1pct', amount: '-20', compared_with: '1000' },
      { source_id: '31', finding: 'fee_above_1pct', amount: '-0.0005', compared_with: '0.005' },
      { source_id: '42', finding: 'income_above_holdings', amount: '0.5', compared_with: '0.00455' },
      { source_id: '52', finding: 'refund_above_fees', amount: '40', compared_with: '30.5' },
    ]);
  });

  it('lists for a range what the view lists of it: balances from before the range, fees from 366 days before a refund', async () => {
    const at = (day: number, hour = 10) => new Date(Date.UTC(2025, 0, day, hour)).toISOString();
    await plausibility([
      // Fees over more than a year, some at the same instant, some exactly 366 days before a refund.
      ['f1', at(1), 'USDT', '-10', 'spot_tax_records', '1', 'trading_fee', '-10'],
      ['f2', at(1), 'USDT', '-2', 'spot_tax_records', '2', 'withdrawal_fee', '-2'],
      ['f3', at(100), 'USDT', '-7', 'spot_tax_records', '3', 'other_fee', '-7'],
      ['f4', at(367), 'USDT', '-1', 'spot_tax_records', '4', 'trading_fee', '-1'],
      ['f5', at(368, 9), 'USDT', '-4', 'spot_tax_records', '5', 'trading_fee', '-4'],
      // Refunds: a day after the first fees' 366 days, on that day, within a year, and later.
      ['r1', at(367), 'USDT', '30', 'spot_tax_records', '11', 'trading_fee', '30'],
      ['r2', at(368), 'USDT', '20', 'spot_tax_records', '12', 'trading_fee', '20'],
      ['r3', at(368, 12), 'USDT', '6', 'spot_tax_records', '13', 'trading_fee', '6'],
      ['r4', at(500), 'USDT', '9', 'spot_tax_records', '14', 'trading_fee', '9'],
      // BTC bought before every range, interest on it within and after.
      ['b1', at(2), 'BTC', '0.01', 'spot_tax_records', '21', 'trade_leg', '1000'],
      ['i1', at(367, 11), 'BTC', '0.02', 'spot_tax_records', '22', 'interest_earned', '2000'],
      ['i2', at(368, 11), 'BTC', '0.05', 'spot_tax_records', '23', 'interest_earned', '5000'],
      ['i3', at(369), 'BTC', '0.01', 'spot_tax_records', '24', 'interest_earned', '1000'],
    ]);
    const columns =
      'source_id, finding, lp_decimal_text(amount) AS amount, lp_decimal_text(compared_with) AS compared_with';
    const listed = (from: string, to: string) =>
      rows(
        warehouse,
        `SELECT ${columns} FROM lp_plausibility_of('lp_plausibility_rows', CAST('${from}' AS TIMESTAMPTZ), CAST('${to}' AS TIMESTAMPTZ)) ORDER BY ts, source_id`,
      );
    const ofView = (from: string, to: string) =>
      rows(
        warehouse,
        `SELECT ${columns} FROM plausibility WHERE ts >= CAST('${from}' AS TIMESTAMPTZ) AND ts < CAST('${to}' AS TIMESTAMPTZ) ORDER BY ts, source_id`,
      );
    for (const [from, to] of [
      [at(367, 0), at(368, 0)],
      [at(368, 0), at(369, 0)],
      [at(367, 10), at(368, 12)],
      [at(368, 11), at(600)],
      [at(1), at(600)],
    ] as const) {
      expect(await listed(from, to)).toEqual(await ofView(from, to));
      // Over an export's valued rows of the range (made once for all its reads), the same findings.
      const range = { start: Date.parse(from), end: Date.parse(to) };
      const ofExport = await withRangeValued(warehouse, range, () =>
        rows(
          warehouse,
          `SELECT ${columns} FROM lp_plausibility_of('${RANGE_VALUED}', CAST('${from}' AS TIMESTAMPTZ), CAST('${to}' AS TIMESTAMPTZ)) ORDER BY ts, source_id`,
        ),
      );
      expect(ofExport).toEqual(await ofView(from, to));
    }
    // What the view sets each refund beside: r1 the fees of its 366 days (the first day's 12 on its edge, 7, and the
    // 1 of its own instant); r2 7 + 1 + 4 (the first day now past); r3 the same 12, above its 6; interest above the
    // BTC held before it.
    expect(await ofView(at(367, 0), at(369, 12))).toEqual([
      { source_id: '11', finding: 'refund_above_fees', amount: '30', compared_with: '20' },
      { source_id: '22', finding: 'income_above_holdings', amount: '0.02', compared_with: '0.01' },
      { source_id: '12', finding: 'refund_above_fees', amount: '20', compared_with: '12' },
      { source_id: '23', finding: 'income_above_holdings', amount: '0.05', compared_with: '0.03' },
    ]);
  });
});
