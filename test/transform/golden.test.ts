import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN, GOLDEN_LEDGER, iso } from './fixtures.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
  await loadRaw(warehouse, GOLDEN);
});
afterEach(() => dispose());

const LEDGER = `SELECT entry_id, account, source, source_id, leg, lp_time_text(ts) AS ts, category, asset,
  lp_decimal_text(amount) AS amount, symbol, reference, note, trade_group FROM ledger ORDER BY entry_id`;

describe('the ledger from hand-written records', () => {
  it('is exactly the rows the contract asks for, and the same on a second run', async () => {
    await runTransforms(warehouse);
    const expected = GOLDEN_LEDGER.map(
      ([entryId, sourceId, leg, ts, category, asset, amount, symbol, reference, note, tradeGroup]) => ({
        entry_id: entryId,
        account: 'default',
        source: (entryId as string).split(':')[0] as string,
        source_id: sourceId,
        leg,
        ts,
        category,
        asset,
        amount,
        symbol,
        reference,
        note,
        trade_group: tradeGroup,
      }),
    ).sort((a, b) => ((a.entry_id as string) < (b.entry_id as string) ? -1 : 1));
    expect(await rows(warehouse, LEDGER)).toEqual(expected);
    await runTransforms(warehouse);
    expect(await rows(warehouse, LEDGER)).toEqual(expected);
  });

  it('types fills: product type from the partition, margin coin with and without marginCoin, fee in the first fee coin', async () => {
    await runTransforms(warehouse);
    const fills = await rows(
      warehouse,
      `SELECT trade_id, product_type, margin_coin, lp_decimal_text(profit) AS profit, lp_decimal_text(fee) AS fee, fee_coin,
        lp_decimal_text(quote_volume) AS quote_volume, lp_time_text(ts) AS ts FROM futures_fills ORDER BY trade_id`,
    );
    expect(fills).toEqual([
      {
        trade_id: '201',
        product_type: 'USDT-FUTURES',
        margin_coin: 'USDT',
        profit: '0',
        fee: '-0.6',
        fee_coin: 'USDT',
        quote_volume: '100',
        ts: iso(20),
      },
      {
        trade_id: '202',
        product_type: 'USDT-FUTURES',
        margin_coin: 'USDT',
        profit: '12.5',
        fee: '0.1',
        fee_coin: 'USDT',
        quote_volume: '100',
        ts: iso(21),
      },
      {
        trade_id: '203',
        product_type: 'COIN-FUTURES',
        margin_coin: 'ETH',
        profit: '-0.002',
        fee: '-0.0001',
        fee_coin: 'ETH',
        quote_volume: '100',
        ts: iso(22),
      },
      {
        trade_id: '204',
        product_type: 'COIN-FUTURES',
        margin_coin: 'BTC',
        profit: '0.0003',
        fee: null,
        fee_coin: null,
        quote_volume: '100',
        ts: iso(23),
      },
      {
        trade_id: '205',
        product_type: 'USDC-FUTURES',
        margin_coin: 'USDC',
        profit: '-5',
        fee: null,
        fee_coin: 'USDC',
        quote_volume: '100',
        ts: iso(24),
      },
      {
        trade_id: '206',
        product_type: 'USDC-FUTURES',
        margin_coin: 'USDC',
        profit: '0',
        fee: '0',
        fee_coin: 'USDC',
        quote_volume: '100',
        ts: iso(25),
      },
      {
        trade_id: '207',
        product_type: 'USDT-FUTURES',
        margin_coin: 'USDT',
        profit: '-100',
        fee: '-2',
        fee_coin: 'USDT',
        quote_volume: '100',
        ts: iso(26),
      },
      // A delivery contract without marginCoin settles in its base coin.
      {
        trade_id: '208',
        product_type: 'COIN-FUTURES',
        margin_coin: 'BTC',
        profit: '0.004',
        fee: '-0.00001',
        fee_coin: 'BTC',
        quote_volume: '100',
        ts: iso(27),
      },
    ]);
  });

  it('types withdrawals in every status, with and without a fee', async () => {
    await runTransforms(warehouse);
    expect(
      await rows(
        warehouse,
        'SELECT order_id, status, lp_decimal_text(fee) AS fee, trade_id, dest FROM withdrawals ORDER BY order_id',
      ),
    ).toEqual([
      { order_id: '301', status: 'success', fee: '-1', trade_id: '0xabc', dest: 'on_chain' },
      { order_id: '302', status: 'success', fee: '0', trade_id: '302', dest: 'internal_transfer' },
      { order_id: '303', status: 'success', fee: null, trade_id: '0xdef', dest: 'on_chain' },
      { order_id: '304', status: 'pending', fee: '-1', trade_id: '304', dest: 'internal_transfer' },
      { order_id: '305', status: 'pending_review', fee: '0', trade_id: '305', dest: 'internal_transfer' },
      { order_id: '306', status: 'pending_fail', fee: '0', trade_id: '306', dest: 'internal_transfer' },
      { order_id: '307', status: 'pending_review_fail', fee: '0', trade_id: '307', dest: 'internal_transfer' },
      { order_id: '308', status: 'reject', fee: '-1', trade_id: '308', dest: 'internal_transfer' },
      { order_id: '309', status: 'fail', fee: '0', trade_id: '309', dest: 'internal_transfer' },
    ]);
  });
});
