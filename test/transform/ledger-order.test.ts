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
  it('is the exports\' order after a whole ledger, kept by nights that append or move few rows, given up beyond', async () => {
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

      // A deposit of the fourth day's millisecond, whose row sorts before the withdrawal's (deposits:... <
      // withdrawals:...): the withdrawal's two rows are moved after it.
      await loadRaw(warehouse, [
        { stream: 'deposits', key: '1', ts: T + 3 * DAY, payload: { orderId: '1', coin: 'USDT', type: 'deposit', dest: 'on_chain', size: '3', status: 'success', cTime: String(T + 3 * DAY), uTime: String(T + 3 * DAY) } },
      ]);
      expect((await runTransforms(warehouse)).mode).toMatchObject({ full: false, update: { changed: 1, deleted: 0, inserted: 1 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // A withdrawal of the day before the first moves to success: the 9 rows after it are moved, within 10.
      await loadRaw(warehouse, [withdrawal('5', T - DAY, 'pending')]);
      await runTransforms(warehouse, { movedRowsMax: 10 });
      await loadRaw(warehouse, [withdrawal('5', T - DAY)]);
      expect((await runTransforms(warehouse, { movedRowsMax: 10 })).mode).toMatchObject({ full: false, update: { changed: 1, inserted: 2 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // One more before it would move 11: the order is given up, and every row is out of its place.
      await loadRaw(warehouse, [withdrawal('4', T - 2 * DAY)]);
      expect((await runTransforms(warehouse, { movedRowsMax: 10 })).mode).toMatchObject({ full: false, update: { changed: 1, inserted: 2 } });
      expect([await order(), await misplaced()]).toEqual([[{ n: '0' }], [{ n: '13' }]]);

      // A whole ledger is in order again.
      expect((await runTransforms(warehouse, { full: true })).mode.full).toBe(true);
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);
    } finally {
      await dispose();
    }
  });
});
