import { z } from 'zod';
import { decimalString, idString, msString, optionalText } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './table.js';
import { field } from './source.js';
import { defineStream, flatArrayPage } from './stream.js';

/** GET /api/v2/spot/wallet/deposit-records: 90-day windows, pages of 100, idLessThan = last orderId, 10/s. */
export const deposits = defineStream({
  kind: 'paged',
  name: 'deposits',
  path: '/api/v2/spot/wallet/deposit-records',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis
  // (docs/history.md).
  carriesLots: true,
  keyField: 'orderId',
  readPage: flatArrayPage('orderId'),
  table: {
    name: 'deposits',
    kind: 'view',
    description:
      'Deposit records (GET /api/v2/spot/wallet/deposit-records), one row per deposit, its latest status (sql/models/deposits.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'order_id',
    ledger: 'paired',
    exported: { key: 'order_id' },
    // The record's fields, each checked beside its column (docs/platform.md, "Withdrawals and deposits": like a
    // withdrawal record).
    columns: [
      accountColumn,
      text('order_id', "The deposit's id (`orderId`).", field('orderId', idString)),
      text(
        'trade_id',
        'The chain transaction hash for an on-chain deposit, else an internal id (`tradeId`); NULL when empty.',
        field('tradeId', optionalText, { emptyAsNull: true }),
      ),
      text('coin', 'The coin deposited (`coin`).', field('coin', z.string())),
      text('type', 'deposit (`type`).', field('type', optionalText)),
      amount('size', 'The amount deposited (`size`).', field('size', decimalString)),
      text('status', 'success, pending, fail, ... (`status`): only success moved money.', field('status', z.string())),
      text(
        'to_address',
        'The receiving address (`toAddress`); NULL when empty.',
        field('toAddress', optionalText, { emptyAsNull: true }),
      ),
      text('dest', 'on_chain or internal_transfer (`dest`).', field('dest', optionalText)),
      text('chain', 'The chain (`chain`); NULL when empty.', field('chain', optionalText, { emptyAsNull: true })),
      text(
        'from_address',
        'The sending address (`fromAddress`); NULL when empty.',
        field('fromAddress', optionalText, { emptyAsNull: true }),
      ),
      instant('u_time', 'When the record last changed (`uTime`).', field('uTime', msString.nullish())),
      tsColumn('cTime', msString),
    ],
  },
});
