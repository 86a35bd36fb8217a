import { z } from 'zod';
import { decimalString, idString, msString, optionalText } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './table.js';
import { field } from './source.js';
import { defineStream, flatArrayPage } from './stream.js';

/** GET /api/v2/spot/wallet/withdrawal-records: 90-day windows, pages of 100, idLessThan = last orderId. */
export const withdrawals = defineStream({
  kind: 'paged',
  name: 'withdrawals',
  path: '/api/v2/spot/wallet/withdrawal-records',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis
  // (docs/history.md).
  carriesLots: true,
  keyField: 'orderId',
  optionalFields: ['fee'],
  readPage: flatArrayPage('orderId'),
  table: {
    name: 'withdrawals',
    kind: 'view',
    description:
      'Withdrawal records (GET /api/v2/spot/wallet/withdrawal-records), one row per withdrawal, its latest status (sql/models/withdrawals.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'order_id',
    ledger: 'paired',
    exported: { key: 'order_id' },
    // The record's fields, each checked beside its column (docs/platform.md, "Withdrawals and deposits": the record,
    // with `fee`, negative on the live service).
    columns: [
      accountColumn,
      text('order_id', "The withdrawal's id (`orderId`).", field('orderId', idString)),
      text(
        'trade_id',
        'The chain transaction hash for an on-chain withdrawal, else an internal id (`tradeId`); NULL when empty.',
        field('tradeId', optionalText, { emptyAsNull: true }),
      ),
      text('coin', 'The coin withdrawn (`coin`).', field('coin', z.string())),
      text(
        'client_oid',
        'The id the client gave (`clientOid`); NULL when empty.',
        field('clientOid', optionalText, { emptyAsNull: true }),
      ),
      text('type', 'withdraw (`type`).', field('type', optionalText)),
      text('dest', 'on_chain or internal_transfer (`dest`).', field('dest', optionalText)),
      amount('size', 'The amount withdrawn (`size`).', field('size', decimalString)),
      amount(
        'fee',
        'The fee (`fee`, negative on the live service; not in the spec); NULL when absent.',
        field('fee', decimalString.nullish()),
      ),
      text(
        'status',
        'success, pending, fail, ... (`status`): only success moved money; pending ones are read again until final.',
        field('status', z.string()),
      ),
      text(
        'from_address',
        'The sending address (`fromAddress`); NULL when empty.',
        field('fromAddress', optionalText, { emptyAsNull: true }),
      ),
      text(
        'to_address',
        'The receiving address (`toAddress`); NULL when empty.',
        field('toAddress', optionalText, { emptyAsNull: true }),
      ),
      text('chain', 'The chain (`chain`); NULL when empty.', field('chain', optionalText, { emptyAsNull: true })),
      text(
        'confirm',
        'Confirmations (`confirm`); NULL when empty.',
        field('confirm', optionalText, { emptyAsNull: true }),
      ),
      text('tag', 'The memo or tag (`tag`); NULL when empty.', field('tag', optionalText, { emptyAsNull: true })),
      instant('u_time', 'When the record last changed (`uTime`).', field('uTime', msString.nullish())),
      tsColumn('cTime', msString),
    ],
  },
});
