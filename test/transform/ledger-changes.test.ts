import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';

const at = (iso: string) => Date.parse(iso);

function withdrawal(id: string, created: string, status: string, size: string): RawInput {
  return {
    account: 'a',
    stream: 'withdrawals',
    key: id,
    ts: at(created),
    payload: {
      orderId: id,
      tradeId: id,
      coin: 'BTC',
      type: 'withdraw',
      dest: 'on_chain',
      chain: 'btc',
      size,
      fee: '0',
      status,
      cTime: String(at(created)),
      uTime: String(at(created)),
    },
  };
}

/**
 * What the transforms noted for the gains since they were last taken in (docs/gains.md, "Kept, not recomputed"), and
 * taken in.
 */
async function noted(warehouse: Warehouse): Promise<Record<string, string | null>[]> {
  const found = await rows(
    warehouse,
    `SELECT strftime(since AT TIME ZONE 'UTC', '%Y-%m-%d') AS since, what FROM ledger_changes ORDER BY since NULLS FIRST`,
  );
  await warehouse.connection.run('DELETE FROM ledger_changes');
  return found;
}

let warehouse: Warehouse;
let dispose: () => Promise<void>;
beforeAll(async () => ({ warehouse, dispose } = await tempWarehouse()));
afterAll(() => dispose());

describe('the ledger changes a transform notes for the gains kept', () => {
  it('are the whole ledger when made whole, the earliest row that comes out otherwise when booked again, and nothing for rows booked again the same', async () => {
    await loadRaw(warehouse, [
      withdrawal('w1', '2025-06-01T00:00:00Z', 'success', '1'),
      withdrawal('w2', '2025-07-01T00:00:00Z', 'pending', '2'),
      withdrawal('w3', '2025-08-01T00:00:00Z', 'success', '3'),
    ]);
    await runTransforms(warehouse);
    expect(await noted(warehouse)).toEqual([{ since: null, what: 'the whole ledger made again' }]);
    // Read again as they were: booked again, the same rows.
    await loadRaw(warehouse, [
      withdrawal('w1', '2025-06-01T00:00:00Z', 'success', '1'),
      withdrawal('w3', '2025-08-01T00:00:00Z', 'success', '3'),
    ]);
    await runTransforms(warehouse);
    expect(await noted(warehouse)).toEqual([]);
    // A withdrawal of July that succeeded since, and one of September new.
    await loadRaw(warehouse, [
      withdrawal('w2', '2025-07-01T00:00:00Z', 'success', '2'),
      withdrawal('w4', '2025-09-01T00:00:00Z', 'success', '4'),
      withdrawal('w3', '2025-08-01T00:00:00Z', 'success', '3'),
    ]);
    await runTransforms(warehouse);
    expect(await noted(warehouse)).toEqual([{ since: '2025-07-01', what: 'ledger rows booked again' }]);
    // One whose amount was corrected: its old rows out, its new in, at its time.
    await loadRaw(warehouse, [withdrawal('w3', '2025-08-01T00:00:00Z', 'success', '3.5')]);
    await runTransforms(warehouse);
    expect(await noted(warehouse)).toEqual([{ since: '2025-08-01', what: 'ledger rows booked again' }]);
  });
});
