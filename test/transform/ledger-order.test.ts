import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import { forgetVersion, ledgerInExportOrder } from '../../src/warehouse/versions.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';

const DAY = 86_400_000;
const T = Date.UTC(2025, 0, 2);

/** A successful on-chain withdrawal of 12.5 USDT with a fee of 1 at `ts`: two ledger rows. */
const withdrawal = (orderId: string, ts: number, status = 'success'): RawInput => ({
  stream: 'withdrawals',
  key: orderId,
  ts,
  payload: {
    orderId,
    coin: 'USDT',
    type: 'withdraw',
    dest: 'on_chain',
    size: '12.5',
    fee: '1',
    status,
    cTime: String(ts),
    uTime: String(ts),
  },
});

describe("the ledger's order", () => {
  it("is the exports' order after a whole ledger, kept by nights that append or move few rows, given up beyond", async () => {
    const { warehouse, dispose } = await tempWarehouse();
    const order = async () => rows(warehouse, "SELECT count(*) AS n FROM model_versions WHERE name = 'ledger_order'");
    // The rows as they lie (rowid) against the exports' order.
    const misplaced = async () =>
      rows(
        warehouse,
        `SELECT count(*) AS n FROM (
        SELECT row_number() OVER (ORDER BY rowid) AS lying, row_number() OVER (ORDER BY ts, entry_id, account) AS sorted FROM ledger
      ) WHERE lying <> sorted`,
      );
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
        {
          stream: 'deposits',
          key: '1',
          ts: T + 3 * DAY,
          payload: {
            orderId: '1',
            coin: 'USDT',
            type: 'deposit',
            dest: 'on_chain',
            size: '3',
            status: 'success',
            cTime: String(T + 3 * DAY),
            uTime: String(T + 3 * DAY),
          },
        },
      ]);
      expect((await runTransforms(warehouse)).mode).toMatchObject({
        full: false,
        update: { changed: 1, deleted: 0, inserted: 1 },
      });
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // A withdrawal of the day before the first moves to success: the 9 rows after it are moved, within 10.
      await loadRaw(warehouse, [withdrawal('5', T - DAY, 'pending')]);
      await runTransforms(warehouse, { movedRowsMax: 10 });
      await loadRaw(warehouse, [withdrawal('5', T - DAY)]);
      expect((await runTransforms(warehouse, { movedRowsMax: 10 })).mode).toMatchObject({
        full: false,
        update: { changed: 1, inserted: 2 },
      });
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);

      // One more before it would move 11: the order is given up, and every row is out of its place.
      await loadRaw(warehouse, [withdrawal('4', T - 2 * DAY)]);
      expect((await runTransforms(warehouse, { movedRowsMax: 10 })).mode).toMatchObject({
        full: false,
        update: { changed: 1, inserted: 2 },
      });
      expect([await order(), await misplaced()]).toEqual([[{ n: '0' }], [{ n: '13' }]]);

      // A whole ledger is in order again.
      expect((await runTransforms(warehouse, { full: true })).mode.full).toBe(true);
      expect([await order(), await misplaced()]).toEqual([[{ n: '1' }], [{ n: '0' }]]);
    } finally {
      await dispose();
    }
  });

  it('is the order an export writes a ledger in as it lies, across row groups read by every thread', async () => {
    const { warehouse, dir, dispose } = await tempWarehouse();
    try {
      // Two threads whatever the machine: one thread keeps any plan's order.
      await warehouse.connection.run('SET threads = 2');
      await loadRaw(warehouse, [withdrawal('1', T)]);
      await runTransforms(warehouse);
      // 400k rows after the transform's two (3 row groups of DuckDB's 122,880 and more), in the exports' order as
      // they lie, with text cells that the CSV's formula guard reads (lp_csv_text): a guard DuckDB plans as a
      // join wrote them out of order.
      await warehouse.connection.run(`INSERT INTO ledger
        SELECT 'withdrawals:' || lpad(CAST(i AS VARCHAR), 7, '0') || ':main', 'default', 'withdrawals', lpad(CAST(i AS VARCHAR), 7, '0'), 'main',
          TIMESTAMPTZ '2025-02-01 00:00:00+00' + to_milliseconds(i), 'withdrawal', 'USDT', CAST(CAST(-i AS DECIMAL(38, 18)) * 0.01 AS DECIMAL(38, 18)), NULL,
          CASE WHEN i % 3 = 0 THEN '-r' || CAST(i AS VARCHAR) ELSE CAST(i AS VARCHAR) END, '=on_chain ' || CAST(i AS VARCHAR), NULL, 'spot'
        FROM range(400000) AS r(i) ORDER BY i`);
      const range = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1), formats: ['csv'] as const };
      expect(await ledgerInExportOrder(warehouse)).toBe(true);
      await exportFiles(warehouse, { ...range, out: join(dir, 'as-lying') });
      await forgetVersion(warehouse.connection, 'ledgerOrder');
      expect(await ledgerInExportOrder(warehouse)).toBe(false);
      await exportFiles(warehouse, { ...range, out: join(dir, 'sorted') });
      const [lying, sorted] = await Promise.all(
        ['as-lying', 'sorted'].map((out) => readFile(join(dir, out, 'ledger.csv'), 'utf8')),
      );
      const lines = (lying as string).split('\n');
      expect(lines.slice(0, 4)).toEqual([
        'entry_id,account,source,source_id,leg,ts,category,asset,amount,symbol,reference,note,trade_group,account_type',
        'withdrawals:1:fee,default,withdrawals,1,fee,2025-01-02T00:00:00.000Z,withdrawal_fee,USDT,-1,,1,on_chain,,spot',
        'withdrawals:1:main,default,withdrawals,1,main,2025-01-02T00:00:00.000Z,withdrawal,USDT,-12.5,,1,on_chain,,spot',
        "withdrawals:0000000:main,default,withdrawals,0000000,main,2025-02-01T00:00:00.000Z,withdrawal,USDT,0,,'-r0,'=on_chain 0,,spot",
      ]);
      expect(lines.at(-2)).toBe(
        "withdrawals:0399999:main,default,withdrawals,0399999,main,2025-02-01T00:06:39.999Z,withdrawal,USDT,-3999.99,,'-r399999,'=on_chain 399999,,spot",
      );
      expect(lines.length).toBe(400_004);
      expect(lying === sorted).toBe(true);
    } finally {
      await dispose();
    }
  });
});
