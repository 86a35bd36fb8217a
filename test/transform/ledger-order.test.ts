import { describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';

const DAY = 86_400_000;
const T = Date.UTC(2025, 0, 2);

/** A successful on-chain withdrawal of 12.5 USDT with a fee of 1 at `ts`: two ledger rows. */
const withdrawal = (orderId: string, ts: number, status = 'success'): RawInput => ({
  stream: 'withdrawals',
  key: orderId,
  ts,
  payload: { orderId, coin: 'USDT', type: 'withdraw', dest: 'on_chain', size: '12.5', fee: '1', status, cTime: String(ts), uTime: String(ts) },
});

describe("the ledger's order", () => {
  it('is the exports\' order after a whole ledger, kept by nights that only append, forgotten by one that books an earlier time', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    const order = async () => rows(warehouse, "SELECT count(*) AS n FROM model_versions WHERE name = 'ledger_order'");
    // The rows as they lie (rowid) against the exports' order.
    const misplaced = async () =>
      rows(warehouse, `SELECT count(*) AS n FROM (
        SELECT row_number() OVER (ORDER BY rowid) AS lying, row_number() OVER (ORDER BY ts, entry_id, account) AS sorted FROM ledger
      ) WHERE lying <> sorted`);
    try {
      // Written backwards, so that the ledger's order cannot come from the order of loading.
      await loadRaw(warehouse, [withdrawal('9', T + 2 * DAY), withdrawal('8', T + DAY), withdrawal('7', T)]);
      expect((await runTransforms(warehouse)).mode.full).toBe(true);
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      await loadRaw(warehouse, [withdrawal('6', T + 3 * DAY)]);
      expect((await runTransforms(warehouse)).mode).toMatchObject({ full: false, update: { changed: 1, inserted: 2 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // A deposit of the fourth day's millisecond: its row sorts before the withdrawal's (deposits:... < withdrawals:...).
      await loadRaw(warehouse, [
        { stream: 'deposits', key: '1', ts: T + 3 * DAY, payload: { orderId: '1', coin: 'USDT', type: 'deposit', dest: 'on_chain', size: '3', status: 'success', cTime: String(T + 3 * DAY), uTime: String(T + 3 * DAY) } },
      ]);
      expect((await runTransforms(warehouse)).mode).toMatchObject({ full: false, update: { changed: 1, inserted: 1 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '0' }], [{ n: '3' }]]);
      expect((await runTransforms(warehouse, { full: true })).mode.full).toBe(true);
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // A withdrawal of the first day moves to success: its rows go after the fourth day's.
      await loadRaw(warehouse, [withdrawal('5', T - DAY, 'pending')]);
      await runTransforms(warehouse);
      await loadRaw(warehouse, [withdrawal('5', T - DAY)]);
      expect((await runTransforms(warehouse)).mode).toMatchObject({ full: false, update: { changed: 1, inserted: 2 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '0' }], [{ n: '11' }]]);

      // A whole ledger is in order again.
      expect((await runTransforms(warehouse, { full: true })).mode.full).toBe(true);
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);
    } finally {
      await dispose();
    }
  });
});
