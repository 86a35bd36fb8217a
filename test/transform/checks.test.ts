import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckError } from '../../src/errors/check-error.js';
import { runTransforms } from '../../src/transform/runner.js';
import { sqlGraph } from '../../src/warehouse/sql-graph.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows } from '../helpers/raw.js';
import { at, transformedGolden } from './fixtures.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dispose } = await transformedGolden());
});
afterEach(() => dispose());

async function problems(): Promise<string[]> {
  const out: string[] = [];
  for (const check of (await sqlGraph()).folder('checks')) {
    for (const row of await rows(warehouse, check.text)) out.push(`${row['check_name']}: ${row['problem']}`);
  }
  return out;
}

describe('the checks after the transforms', () => {
  it('find nothing wrong with a correct ledger', async () => {
    expect(await problems()).toEqual([]);
  });

  it('find a doubled ledger row', async () => {
    await warehouse.connection.run("INSERT INTO ledger SELECT * FROM ledger WHERE entry_id = 'withdrawals:301:main'");
    expect(await problems()).toEqual([
      'ledger keys are unique: entry withdrawals:301:main of account default appears 2 times',
      'ledger sums equal the typed tables: default USDT withdrawal: typed -100, ledger -200',
    ]);
  });

  it('find a lost row, and a row for a withdrawal that did not succeed', async () => {
    await warehouse.connection.run("DELETE FROM ledger WHERE entry_id = 'margin_records:103:main'");
    await warehouse.connection.run("UPDATE typed_withdrawals SET status = 'pending' WHERE order_id = '302'");
    expect((await problems()).sort()).toEqual([
      'every record has its ledger rows: margin record 103 has no ledger row',
      'every record has its ledger rows: withdrawal 302 in status pending has ledger rows',
      'ledger sums equal the typed tables: default BTC loan_borrow: typed 0.5, ledger nothing',
      'ledger sums equal the typed tables: default BTC withdrawal: typed nothing, ledger -0.1',
    ]);
  });

  it('find a fill whose only movement was its fee, and one with a profit, that lost their ledger rows', async () => {
    // 201 has no profit and a fee of -0.6; 205 a profit and a fee entry without totalFee; 206 neither, so no rows.
    await warehouse.connection.run("DELETE FROM ledger WHERE source = 'futures_fills' AND source_id IN ('201', '205')");
    expect((await problems()).sort()).toEqual([
      'every record has its ledger rows: fill 201 moved money but has no ledger row',
      'every record has its ledger rows: fill 205 moved money but has no ledger row',
      'ledger sums equal the typed tables: default USDC realized_pnl: typed -5, ledger nothing',
      'ledger sums equal the typed tables: default USDT trading_fee: typed -2.5, ledger -1.9',
    ]);
  });

  it('fail the transform with exit 4 and keep the previous ledger when the data breaks a rule', async () => {
    // The same margin id in both margin types would book one ledger entry twice.
    await loadRaw(warehouse, [
      {
        stream: 'margin_records',
        partition: 'isolated',
        key: '101',
        ts: at(50),
        payload: {
          id: '101',
          coin: 'USDT',
          symbol: 'BTCUSDT',
          marginTaxType: 'transfer_in',
          amount: '5',
          fee: '0',
          total: '5',
          ts: String(at(50)),
        },
      },
    ]);
    const error = await runTransforms(warehouse).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    expect((error as CheckError).exit).toBe('incomplete');
    expect((error as CheckError).message).toBe(
      'the ledger failed its checks, so the previous one was kept: ledger keys are unique: entry margin_records:101:main of account default appears 2 times; report this with the warehouse',
    );
    expect((error as CheckError).problems).toEqual([
      'ledger keys are unique: entry margin_records:101:main of account default appears 2 times',
    ]);
    expect(await rows(warehouse, "SELECT count(*) AS n FROM ledger WHERE source_id = '101'")).toEqual([{ n: '1' }]);
    // The record is in its stream's table as loaded (typed at load), and waits in pending_changes for a transform that passes.
    expect(await rows(warehouse, "SELECT margin_type FROM margin_records WHERE id = '101' ORDER BY 1")).toEqual([
      { margin_type: 'crossed' },
      { margin_type: 'isolated' },
    ]);
    expect(await rows(warehouse, 'SELECT stream, partition, key FROM pending_changes')).toEqual([
      { stream: 'margin_records', partition: 'isolated', key: '101' },
    ]);
  });
});
