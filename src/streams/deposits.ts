import { z } from 'zod';
import { decimalString, idString, msString } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './model.js';
import { defineStream, flatArrayPage } from './stream.js';

/** docs/platform.md, "Withdrawals and deposits": like a withdrawal record. */
export const depositSchema = z.looseObject({
  orderId: idString,
  tradeId: z.string().nullish(),
  coin: z.string(),
  type: z.string().nullish(),
  size: decimalString,
  status: z.string(),
  toAddress: z.string().nullish(),
  dest: z.string().nullish(),
  chain: z.string().nullish(),
  fromAddress: z.string().nullish(),
  cTime: msString,
  uTime: msString.nullish(),
});

/** GET /api/v2/spot/wallet/deposit-records: 90-day windows, pages of 100, idLessThan = last orderId, 10/s. */
export const deposits = defineStream({
  kind: 'paged',
  name: 'deposits',
  path: '/api/v2/spot/wallet/deposit-records',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis (docs/history.md).
  carriesLots: true,
  schema: depositSchema,
  keyField: 'orderId',
  time: (record) => Number(record['cTime']),
  readPage: flatArrayPage('orderId'),
  model: {
    name: 'deposits',
    kind: 'view',
    description: 'Deposit records (GET /api/v2/spot/wallet/deposit-records), one row per deposit, its latest status (sql/models/deposits.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'order_id',
    ledger: 'paired',
    exported: { key: 'order_id' },
    columns: [
      accountColumn,
      text('order_id', "The deposit's id (`orderId`)."),
      text('trade_id', 'The chain transaction hash for an on-chain deposit, else an internal id (`tradeId`); NULL when empty.'),
      text('coin', 'The coin deposited (`coin`).'),
      text('type', 'deposit (`type`).'),
      amount('size', 'The amount deposited (`size`).'),
      text('status', 'success, pending, fail, ... (`status`): only success moved money.'),
      text('to_address', 'The receiving address (`toAddress`); NULL when empty.'),
      text('dest', 'on_chain or internal_transfer (`dest`).'),
      text('chain', 'The chain (`chain`); NULL when empty.'),
      text('from_address', 'The sending address (`fromAddress`); NULL when empty.'),
      instant('u_time', 'When the record last changed (`uTime`).'),
      tsColumn('cTime'),
    ],
  },
});
