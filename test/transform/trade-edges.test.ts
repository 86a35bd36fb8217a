import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';
import { cointrackingNets, koinlyNets, ledgerNets, netLines, parseCsv } from '../helpers/tax-files.js';

const T = Date.UTC(2025, 8, 1);
const at = (second: number) => T + second * 1000;

function margin(
  account: string,
  second: number,
  id: string,
  type: string,
  coin: string,
  amount: string,
  symbol: string,
  fee = '0',
): RawInput {
  return {
    account,
    stream: 'margin_records',
    partition: 'crossed',
    key: id,
    ts: at(second),
    payload: { id, coin, symbol, marginTaxType: type, amount, fee, total: '1', ts: String(at(second)) },
  };
}
function spot(
  account: string,
  second: number,
  id: string,
  type: string,
  coin: string,
  amount: string,
  order: string,
): RawInput {
  return {
    account,
    stream: 'spot_tax_records',
    key: id,
    ts: at(second),
    payload: { id, coin, spotTaxType: type, amount, fee: '0', balance: '1', bizOrderId: order, ts: String(at(second)) },
  };
}
function withdrawal(account: string, second: number, id: string, fee: string): RawInput {
  return {
    account,
    stream: 'withdrawals',
    key: id,
    ts: at(second),
    payload: {
      orderId: id,
      tradeId: id,
      coin: 'USDT',
      type: 'withdraw',
      dest: 'internal_transfer',
      size: '10',
      fee,
      status: 'success',
      cTime: String(at(second)),
      uTime: String(at(second)),
    },
  };
}

const RECORDS: readonly RawInput[] = [
  // Two margin trades in one millisecond, and a system fee without a symbol: it cannot tell which, so it stands alone.
  margin('a', 0, '1', 'deal_in', 'BTC', '0.01', 'BTCUSDT', '-0.00001'),
  margin('a', 0, '2', 'deal_out', 'USDT', '-500', 'BTCUSDT'),
  margin('a', 0, '3', 'deal_in', 'ETH', '0.2', 'ETHUSDT'),
  margin('a', 0, '4', 'deal_out', 'USDT', '-600', 'ETHUSDT'),
  margin('a', 0, '5', 'system_fee_in', 'USDT', '0.3', ''),
  // A spot buy whose fee entry is a rebate: the rebate is in the amounts, not in a fee column.
  spot('a', 1, '11', 'Buy', 'SOL', '2', 'o1'),
  spot('a', 1, '12', 'Buy', 'USDT', '-300', 'o1'),
  spot('a', 1, '13', 'Transaction fee deduct', 'SOL', '0.001', 'o1'),
  // A buy and a sell of one symbol in one millisecond: both coins in and out, no one trade. Each leg for review.
  margin('a', 2, '21', 'deal_in', 'BTC', '0.01', 'BTCUSDT'),
  margin('a', 2, '22', 'deal_out', 'USDT', '500', 'BTCUSDT'),
  margin('a', 2, '23', 'deal_out', 'BTC', '0.005', 'BTCUSDT'),
  margin('a', 2, '24', 'deal_in', 'USDT', '260', 'BTCUSDT'),
  // A fee larger than what came in: no trade row can hold it. Each leg for review.
  margin('a', 3, '31', 'deal_in', 'BTC', '0.00001', 'BTCUSDT', '-0.00002'),
  margin('a', 3, '32', 'deal_out', 'USDT', '1', 'BTCUSDT'),
  withdrawal('a', 4, '41', '0'),
  // Account b reuses a's ids: nothing of one may reach the other's rows.
  margin('b', 0, '1', 'deal_in', 'BTC', '0.02', 'BTCUSDT', '-0.00002'),
  margin('b', 0, '2', 'deal_out', 'USDT', '-1000', 'BTCUSDT'),
  withdrawal('b', 4, '41', '-1'),
];

let warehouse: Warehouse;
let dispose: () => Promise<void>;
let koinly: string;
let cointracking: string;

beforeAll(async () => {
  let dir: string;
  ({ warehouse, dir, dispose } = await tempWarehouse());
  await loadRaw(warehouse, RECORDS);
  await runTransforms(warehouse);
  await exportFiles(warehouse, { out: join(dir, 'out'), from: T, to: T + 60_000, formats: ['koinly', 'cointracking'] });
  koinly = await readFile(join(dir, 'out', 'koinly.csv'), 'utf8');
  cointracking = await readFile(join(dir, 'out', 'cointracking.csv'), 'utf8');
});
afterAll(() => dispose());

describe('trades at their edges, in two accounts that share ids', () => {
  it('groups legs per account, symbol or order, and millisecond; a fee that could belong to two trades stands alone', async () => {
    const sql = `SELECT account, entry_id, trade_group FROM ledger WHERE source = 'margin_records' AND epoch_ms(ts) = ${at(0)} ORDER BY account, entry_id`;
    expect(await rows(warehouse, sql)).toEqual([
      { account: 'a', entry_id: 'margin_records:1:fee', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
      { account: 'a', entry_id: 'margin_records:1:main', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
      { account: 'a', entry_id: 'margin_records:2:main', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
      { account: 'a', entry_id: 'margin_records:3:main', trade_group: `margin_records:crossed:ETHUSDT:${at(0)}` },
      { account: 'a', entry_id: 'margin_records:4:main', trade_group: `margin_records:crossed:ETHUSDT:${at(0)}` },
      { account: 'a', entry_id: 'margin_records:5:main', trade_group: null },
      { account: 'b', entry_id: 'margin_records:1:fee', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
      { account: 'b', entry_id: 'margin_records:1:main', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
      { account: 'b', entry_id: 'margin_records:2:main', trade_group: `margin_records:crossed:BTCUSDT:${at(0)}` },
    ]);
  });

  it('writes exactly these rows: one per trade, fees in it as each tool asks, the rest alone and marked for review', () => {
    const amount = (label: string, value = '', asset = '') => (value === '' ? [] : [`${label} ${value} ${asset}`]);
    const ko = parseCsv(koinly)
      .slice(1)
      .map((r) => {
        const description = r[10] as string;
        const account = /\[(\w+)\]$/.exec(description)?.[1];
        return [
          `${account}:`,
          ...amount('sent', r[1], r[2]),
          ...amount('received', r[3], r[4]),
          ...amount('fee', r[5], r[6]),
          r[9] === '' ? 'no tag' : `"${r[9]}"`,
          ...(description.startsWith('REVIEW') ? ['REVIEW'] : []),
        ].join(' ');
      });
    expect(ko).toEqual([
      'a: sent 500 USDT received 0.01 BTC fee 0.00001 BTC no tag',
      'b: sent 1000 USDT received 0.02 BTC fee 0.00002 BTC no tag',
      'a: sent 600 USDT received 0.2 ETH no tag',
      'a: sent 0.3 USDT "margin fee"',
      'a: sent 300 USDT received 2.001 SOL no tag',
      'a: received 0.01 BTC no tag REVIEW',
      'a: sent 500 USDT no tag REVIEW',
      'a: sent 0.005 BTC no tag REVIEW',
      'a: received 260 USDT no tag REVIEW',
      'a: sent 0.00002 BTC "margin fee"',
      'a: received 0.00001 BTC no tag REVIEW',
      'a: sent 1 USDT no tag REVIEW',
      'a: sent 10 USDT no tag',
      'b: sent 11 USDT no tag',
    ]);
    const ct = parseCsv(cointracking)
      .slice(1)
      .map((r) =>
        [
          `${r[7]}:`,
          `"${r[0]}"`,
          ...amount('buy', r[1], r[2]),
          ...amount('sell', r[3], r[4]),
          ...amount('fee', r[5], r[6]),
          ...((r[9] as string).startsWith('REVIEW') ? ['REVIEW'] : []),
        ].join(' '),
      );
    expect(ct).toEqual([
      'a: "Trade" buy 0.00999 BTC sell 500 USDT fee 0.00001 BTC',
      'b: "Trade" buy 0.01998 BTC sell 1000 USDT fee 0.00002 BTC',
      'a: "Trade" buy 0.2 ETH sell 600 USDT',
      'a: "Other Fee" sell 0.3 USDT',
      'a: "Trade" buy 2.001 SOL sell 300 USDT',
      'a: "Deposit" buy 0.01 BTC REVIEW',
      'a: "Withdrawal" sell 500 USDT REVIEW',
      'a: "Withdrawal" sell 0.005 BTC REVIEW',
      'a: "Deposit" buy 260 USDT REVIEW',
      'a: "Other Fee" sell 0.00002 BTC',
      'a: "Deposit" buy 0.00001 BTC REVIEW',
      'a: "Withdrawal" sell 1 USDT REVIEW',
      'a: "Withdrawal" sell 10 USDT',
      'b: "Withdrawal" sell 11 USDT fee 1 USDT',
    ]);
  });

  it('balances per account and asset in both files, and accounts for every ledger row once', async () => {
    const ledger = netLines(await ledgerNets(warehouse, T, T + 60_000));
    expect(netLines(koinlyNets(koinly))).toEqual(ledger);
    expect(netLines(cointrackingNets(cointracking))).toEqual(ledger);
    expect(
      await rows(
        warehouse,
        `SELECT (SELECT count(*) FROM ledger ANTI JOIN tax_export_entries USING (account, entry_id)) AS lost,
                (SELECT count(*) FROM (SELECT account, entry_id FROM tax_export_entries GROUP BY ALL HAVING count(*) > 1)) AS twice`,
      ),
    ).toEqual([{ lost: '0', twice: '0' }]);
  });
});

describe('the plan that pairs trades', () => {
  it('joins by equalities only: no nested-loop join, which took 229 s over a busy year of every stream', async () => {
    const ledgerSql = await readFile(new URL('../../sql/ledger/10_ledger.sql', import.meta.url), 'utf8');
    const [plan] = await rows(warehouse, `EXPLAIN (FORMAT json) ${ledgerSql}`);
    type Operator = { name: string; children: Operator[] };
    const names = (op: Operator): string[] => [op.name, ...op.children.flatMap(names)];
    const joins = (JSON.parse(String(plan?.['explain_value'])) as Operator[])
      .flatMap(names)
      .filter((n) => /JOIN|PRODUCT/.test(n));
    // The catalog lookups of booked_records (two) and fill_rows (one), the two trade joins of record_rows, and
    // the scalar read of the unreviewed category, which DuckDB plans as a cross product with its single row.
    expect(joins.sort()).toEqual([
      'CROSS_PRODUCT',
      'CROSS_PRODUCT',
      'CROSS_PRODUCT',
      'HASH_JOIN',
      'HASH_JOIN',
      'HASH_JOIN',
      'HASH_JOIN',
      'HASH_JOIN',
    ]);
  });
});
