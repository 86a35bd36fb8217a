import { z } from 'zod';
import { decimalString, idString, msString } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './model.js';
import { defineStream, flatArrayPage } from './stream.js';

/** docs/platform.md, "Withdrawals and deposits": the record, with `fee` (negative on the live service). */
export const withdrawalSchema = z.looseObject({
  orderId: idString,
  tradeId: z.string().nullish(),
  coin: z.string(),
  clientOid: z.string().nullish(),
  type: z.string().nullish(),
  dest: z.string().nullish(),
  size: decimalString,
  fee: decimalString.nullish(),
  status: z.string(),
  fromAddress: z.string().nullish(),
  toAddress: z.string().nullish(),
  chain: z.string().nullish(),
  confirm: z.string().nullish(),
  tag: z.string().nullish(),
  cTime: msString,
  uTime: msString.nullish(),
});

/** GET /api/v2/spot/wallet/withdrawal-records: 90-day windows, pages of 100, idLessThan = last orderId. */
export const withdrawals = defineStream({
  kind: 'paged',
  name: 'withdrawals',
  path: '/api/v2/spot/wallet/withdrawal-records',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis (docs/history.md).
  carriesLots: true,
  schema: withdrawalSchema,
  keyField: 'orderId',
  optionalFields: ['fee'],
  time: (record) => Number(record['cTime']),
  readPage: flatArrayPage('orderId'),
  model: {
    name: 'withdrawals',
    kind: 'view',
    description: 'Withdrawal records (GET /api/v2/spot/wallet/withdrawal-records), one row per withdrawal, its latest status (sql/models/withdrawals.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'order_id',
    ledger: 'paired',
    exported: { key: 'order_id' },
    columns: [
      accountColumn,
      text('order_id', "The withdrawal's id (`orderId`)."),
      text('trade_id', 'The chain transaction hash for an on-chain withdrawal, else an internal id (`tradeId`); NULL when empty.'),
      text('coin', 'The coin withdrawn (`coin`).'),
      text('client_oid', 'The id the client gave (`clientOid`); NULL when empty.'),
      text('type', 'withdraw (`type`).'),
      text('dest', 'on_chain or internal_transfer (`dest`).'),
      amount('size', 'The amount withdrawn (`size`).'),
      amount('fee', 'The fee (`fee`, negative on the live service; not in the spec); NULL when absent.'),
      text('status', 'success, pending, fail, ... (`status`): only success moved money; pending ones are read again until final.'),
      text('from_address', 'The sending address (`fromAddress`); NULL when empty.'),
      text('to_address', 'The receiving address (`toAddress`); NULL when empty.'),
      text('chain', 'The chain (`chain`); NULL when empty.'),
      text('confirm', 'Confirmations (`confirm`); NULL when empty.'),
      text('tag', 'The memo or tag (`tag`); NULL when empty.'),
      instant('u_time', 'When the record last changed (`uTime`).'),
      tsColumn('cTime'),
    ],
  },
});
