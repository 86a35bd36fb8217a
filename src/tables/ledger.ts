import { accountColumn, amount, instant, text, type TableDef } from '../streams/table.js';

/** The ledger (sql/ledger/10_ledger.sql; docs/ledger.md). */
export const ledger: TableDef = {
  name: 'ledger',
  kind: 'table',
  description:
    'The normalized ledger: one row per movement of one asset, booked from the stream models by the type catalog (sql/ledger/10_ledger.sql). amount is signed: + into the account, - out of it.',
  exported: { key: 'entry_id' },
  columns: [
    text('entry_id', 'source:source_id:leg, the same in every run.'),
    accountColumn,
    text('source', 'The stream the row is booked from (margin_records, futures_fills, ...).'),
    text('source_id', "The record's key in that stream (id, trade_id or order_id)."),
    text('leg', "Which movement of the record: main, fee, pnl, or fee<n> for a fill's n-th fee entry."),
    instant('ts', "The record's time."),
    text(
      'category',
      'What the movement is (trade_in, trading_fee, funding_fee, ...), from the type catalog; unreviewed for a type the catalog lacks.',
    ),
    text('asset', 'The coin that moved.'),
    amount('amount', 'The amount moved, signed: + into the account, - out of it.'),
    text('symbol', 'The pair or contract, where the record has one.'),
    text('reference', 'The chain transaction hash of an on-chain withdrawal or deposit, else the order or record id.'),
    text(
      'note',
      'The partition and type the row was read under; for an unreviewed row, the field and the type as received.',
    ),
    text(
      'trade_group',
      'Links the legs and fees of one trade (source:scope:key:millisecond); NULL for a movement that is no trade.',
    ),
    text(
      'account_type',
      'The account type the movement is in (spot, usdt_futures, coin_futures, usdc_futures, margin_crossed, margin_isolated, funding): the names of asset_balances (docs/completeness.md, "Balances").',
    ),
  ],
};
