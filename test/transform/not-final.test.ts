import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFinalLines } from '../../src/cli/summary.js';
import { OPEN_STATUSES } from '../../src/streams/open-statuses.js';
import { runTransforms } from '../../src/transform/runner.js';
import { readNotFinal } from '../../src/reads/reports.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, tempWarehouse, type RawInput } from '../helpers/raw.js';

const YEAR = { start: Date.UTC(2025, 0, 1), end: Date.UTC(2026, 0, 1) };
const at = (iso: string) => Date.parse(iso);

function transfer(
  stream: 'withdrawals' | 'deposits',
  id: string,
  created: string,
  status: string,
  updated: string,
  coin: string,
  size: string,
  account = 'a',
): RawInput {
  return {
    account,
    stream,
    key: id,
    ts: at(created),
    payload: {
      orderId: id,
      tradeId: id,
      coin,
      type: stream === 'deposits' ? 'deposit' : 'withdraw',
      dest: 'on_chain',
      chain: 'erc20',
      size,
      fee: '0',
      status,
      cTime: String(at(created)),
      uTime: String(at(updated)),
    },
  };
}

let warehouse: Warehouse;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
  await loadRaw(warehouse, [
    transfer('withdrawals', 'w1', '2025-12-31T20:00:00Z', 'pending', '2025-12-31T20:00:00Z', 'USDT', '10.5'),
    transfer('withdrawals', 'w2', '2025-12-31T22:00:00Z', 'success', '2026-01-01T01:00:00Z', 'USDT', '2'),
    transfer('withdrawals', 'w3', '2025-06-01T00:00:00Z', 'success', '2025-06-01T00:10:00Z', 'USDT', '7'),
    transfer('withdrawals', 'w4', '2025-12-30T00:00:00Z', 'pending_review', '2025-12-30T00:00:00Z', 'USDT', '1.25'),
    transfer('withdrawals', 'w5', '2026-01-02T00:00:00Z', 'pending', '2026-01-02T00:00:00Z', 'USDT', '9'),
    transfer('withdrawals', 'w7', '2025-12-31T23:59:59.999Z', 'fail', '2026-01-01T00:00:00Z', 'USDT', '4'),
    transfer('deposits', 'd1', '2025-12-31T23:00:00Z', 'pending', '2025-12-31T23:00:00Z', 'BTC', '0.5'),
    transfer('deposits', 'd2', '2025-11-01T00:00:00Z', 'success', '2026-01-03T00:00:00Z', 'BTC', '0.1'),
    transfer('withdrawals', 'w6', '2025-08-01T00:00:00Z', 'pending', '2025-08-01T00:00:00Z', 'ETH', '3', 'b'),
  ]);
  await runTransforms(warehouse);
});
afterAll(() => dispose());

describe('withdrawals and deposits not final at the range end', () => {
  it('are those of the range still open now, or final only after its end (uTime), per account, stream, state and asset', async () => {
    expect(await readNotFinal(warehouse, YEAR, OPEN_STATUSES)).toEqual([
      { account: 'a', stream: 'deposits', asset: 'BTC', state: 'final later', count: 1, total: '0.1' },
      { account: 'a', stream: 'deposits', asset: 'BTC', state: 'open', count: 1, total: '0.5' },
      // w2 succeeded and w7 failed after the end: both were not final at it.
      { account: 'a', stream: 'withdrawals', asset: 'USDT', state: 'final later', count: 2, total: '6' },
      { account: 'a', stream: 'withdrawals', asset: 'USDT', state: 'open', count: 2, total: '11.75' },
      { account: 'b', stream: 'withdrawals', asset: 'ETH', state: 'open', count: 1, total: '3' },
    ]);
    expect((await readNotFinal(warehouse, YEAR, OPEN_STATUSES, 'b')).map((n) => n.account)).toEqual(['b']);
  });

  it('are listed in the summary and status in one line each', async () => {
    expect(notFinalLines(await readNotFinal(warehouse, YEAR, OPEN_STATUSES, 'a'), '  ')).toEqual([
      "  withdrawals and deposits not final at the range's end (the ledger books them only once final):",
      '    a deposits BTC: 1 final only after the end, 0.1',
      '    a deposits BTC: 1 still pending now, 0.5',
      '    a withdrawals USDT: 2 final only after the end, 6',
      '    a withdrawals USDT: 2 still pending now, 11.75',
    ]);
  });

  it('leave out the published examples, final at once (status success, uTime = cTime), in a range that ends at their time', async () => {
    const published = async (file: string, stream: 'withdrawals' | 'deposits') => {
      const record = (
        JSON.parse(await readFile(new URL(`../fixtures/real/${file}`, import.meta.url), 'utf8')) as {
          response: { data: Record<string, string>[] };
        }
      ).response.data[0] as Record<string, string>;
      return {
        account: 'real',
        stream,
        key: record['orderId'] as string,
        ts: Number(record['cTime']),
        payload: record,
      } satisfies RawInput;
    };
    const { warehouse: real, dispose: disposeReal } = await tempWarehouse();
    try {
      await loadRaw(real, [
        await published('withdrawal-records--bitget-docs-spot-account-fee.json', 'withdrawals'),
        await published('deposit-records--bitget-docs-spot-account.json', 'deposits'),
      ]);
      await runTransforms(real);
      const at = 1653290769222;
      expect(await readNotFinal(real, { start: at, end: at + 1 }, OPEN_STATUSES)).toEqual([]);
      // The same records, had their status still been the interface spec's first review state, are open.
      await real.connection.run(
        "UPDATE typed_withdrawals SET status = 'pending_review'; UPDATE typed_deposits SET status = 'pending'",
      );
      expect(
        (await readNotFinal(real, { start: at, end: at + 1 }, OPEN_STATUSES)).map(
          (n) => `${n.stream} ${n.asset} ${n.state} ${n.count} ${n.total}`,
        ),
      ).toEqual(['deposits USDT open 1 10', 'withdrawals USDT open 1 10']);
    } finally {
      await disposeReal();
    }
  });
});
