import { accountColumn, amount, instant, text, type TableDef } from '../streams/table.js';

// The views the tax-software files are made of, and those that account for every ledger row
// (sql/ledger/20_tax_export.sql, sql/values/40_tax_row_values.sql; docs/tax-files.md).

export const taxExportRows: TableDef = {
  name: 'tax_export_rows',
  kind: 'view',
  description:
    'One row per row of the tax files, with what Koinly and CoinTracking each get: the legs and fees of a trade in one row, else one ledger row each (sql/ledger/20_tax_export.sql).',
  columns: [
    accountColumn,
    instant(
      'ts',
      'The time of its entries, which lie at one instant (a trade too: checks/15_trades_at_one_instant.sql).',
    ),
    text('row_id', "The entry_id of its first entry; with the account, CoinTracking's Tx-ID."),
    {
      name: 'entries',
      type: 'VARCHAR[]',
      description:
        "The entry_id of every ledger row in it: a trade's legs and its fees in those two coins, or one row and a withdrawal fee folded into it.",
    },
    text('source', 'The stream its entries are booked from.'),
    text('category', 'trade for a trade, else the ledger category of its entry.'),
    text('description', 'trade, its trade_group and its entries; else the category and its entries.'),
    amount(
      'koinly_sent',
      "Koinly's Sent Amount: what left the account, with a fee in the same coin (a trade's, a withdrawal's); NULL when nothing left.",
    ),
    text('koinly_sent_asset', "Koinly's Sent Currency."),
    amount(
      'koinly_received',
      "Koinly's Received Amount: what came in, a trade's with a rebate in the received coin; NULL when nothing came in.",
    ),
    text('koinly_received_asset', "Koinly's Received Currency."),
    amount('koinly_fee', "Koinly's Fee Amount: a trade's fee paid in the received coin; else NULL."),
    text('koinly_fee_asset', "Koinly's Fee Currency."),
    text('koinly_tag', "Koinly's Tag, from the type catalog; NULL for a trade, and where the catalog gives none."),
    text('cointracking_type', "CoinTracking's Type, from the type catalog: for a trade, its received leg's (Trade)."),
    amount(
      'cointracking_buy',
      "CoinTracking's Buy Amount: what came in, a trade's less its fee in the received coin; NULL when nothing came in.",
    ),
    text('cointracking_buy_asset', "CoinTracking's Buy Currency."),
    amount(
      'cointracking_sell',
      "CoinTracking's Sell Amount: what left, with a fee in the same coin (a trade's, a withdrawal's); NULL when nothing left.",
    ),
    text('cointracking_sell_asset', "CoinTracking's Sell Currency."),
    amount(
      'cointracking_fee',
      "CoinTracking's Fee, informational: a trade's fee paid in the received coin, else in the sent one, or a withdrawal's fee; NULL for none.",
    ),
    text('cointracking_fee_asset', "CoinTracking's Fee Currency."),
    text(
      'review',
      'Why a person should look at the row before filing: a trade leg that makes no trade, a type not in the catalog, an unclear type; else NULL.',
    ),
    text('tx_hash', 'The chain transaction hash of an on-chain withdrawal or deposit; else NULL.'),
  ],
};

export const taxExportEntries: TableDef = {
  name: 'tax_export_entries',
  kind: 'view',
  description:
    'Every ledger row that is in the tax files, and the tax_export_rows row it is in (sql/ledger/20_tax_export.sql). With tax_export_excluded, it accounts for every ledger row.',
  columns: [
    text('entry_id', "The ledger row's entry_id."),
    accountColumn,
    text('row_id', 'The row_id of the tax_export_rows row it is in.'),
  ],
};

export const taxExportExcluded: TableDef = {
  name: 'tax_export_excluded',
  kind: 'view',
  description:
    'Every ledger row the tax files leave out, with the reason: its tax class stays out of them, or it moves nothing (sql/ledger/20_tax_export.sql).',
  columns: [
    text('entry_id', "The ledger row's entry_id."),
    accountColumn,
    text(
      'reason',
      'The tax class and its meaning, for a class the tax files leave out; `zero: the row moves nothing` for an amount of 0.',
    ),
  ],
};

export const taxRowValues: TableDef = {
  name: 'tax_row_values',
  kind: 'view',
  description:
    "The values of each tax_export_rows row in the valuation's fiat: Koinly's Net Worth, CoinTracking's Buy and Sell values (sql/values/40_tax_row_values.sql). No rows without a fiat.",
  columns: [
    accountColumn,
    text('row_id', 'The row_id of the tax_export_rows row.'),
    amount(
      'net_worth',
      "Koinly's Net Worth Amount: the value of what the row received, else that of the entry it stands for without its sign; NULL when a value is missing.",
    ),
    amount(
      'buy_value',
      "CoinTracking's Buy Value: the summed value of the row's entries in its buy coin; NULL when one has no value, or the row buys nothing.",
    ),
    amount(
      'sell_value',
      "CoinTracking's Sell Value: the summed value of the row's entries in its sell coin, negated; NULL when one has no value, or the row sells nothing.",
    ),
    text('currency', 'The fiat of the values (valuation.fiat).'),
  ],
};

/** The tax files' views, in the order docs/tables.md lists them, then their values. */
export const TAX_TABLES: readonly TableDef[] = [taxExportRows, taxExportEntries, taxExportExcluded, taxRowValues];
