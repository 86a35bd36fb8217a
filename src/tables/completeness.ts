import { accountColumn, amount, instant, text, type TableDef } from '../streams/table.js';

// What proves the export complete, or shows where it is not (sql/completeness/; docs/completeness.md, "Completeness").

export const balanceBreaks: TableDef = {
  name: 'balance_breaks',
  kind: 'view',
  description:
    'One row per break of a running-balance chain: a record whose balance is not the previous one plus its own movement, so a record before it is missing or misread (sql/completeness/10_balance_breaks.sql; docs/completeness.md, "Running balances").',
  columns: [
    accountColumn,
    text('stream', 'The stream whose records carry the balance: spot_tax_records (balance) or margin_records (total).'),
    text('partition', "The chain within it: '' for spot, crossed, or isolated and the pair."),
    text('asset', 'The coin of the chain.'),
    instant('ts', 'The time of the first record after the break.'),
    text('source_id', 'The id of the first record after the break.'),
    amount(
      'expected',
      "The previous record's balance plus this record's movement (amount and fee, signed as the type catalog says); NULL beyond DECIMAL(38,18).",
    ),
    amount('reported', "This record's balance as the platform wrote it."),
    amount(
      'difference',
      'reported - expected: the movement of what is missing before this record; NULL beyond DECIMAL(38,18).',
    ),
  ],
};

export const signMismatches: TableDef = {
  name: 'sign_mismatches',
  kind: 'view',
  description:
    "One row per running-balance step that adds up only with the record's movement the other way round: the type is booked one way (the type catalog's direction applied to its amount) and the balance it carries moved the other way. Nothing is missing; the type's label, or the catalog's reading of it, is backwards: a finding (sql/completeness/10_balance_breaks.sql; docs/completeness.md, \"Signs checked against balances\").",
  columns: [
    accountColumn,
    text(
      'stream',
      'The stream whose records carry the balance (spot_tax_records, margin_records, uta_tax_records, uta_financial_records).',
    ),
    text('partition', 'The chain within it, as in balance_breaks.'),
    text('asset', 'The coin of the chain.'),
    instant('ts', "The record's time."),
    text('source_id', "The record's id."),
    text('field', 'The field that names its type (spotTaxType, marginTaxType, type, groupType).'),
    text('type', 'Its type, as the platform spelled it: the type catalog row to review.'),
    amount('amount', "The record's amount as written."),
    amount('booked', "The movement the ledger books for it: the amount with the catalog's direction applied."),
    amount('step', "The balance's own step: reported - previous, the opposite of booked; NULL beyond DECIMAL(38,18)."),
    amount('previous', 'The balance of the record before it in the chain.'),
    amount('reported', "This record's balance as the platform wrote it."),
  ],
};

export const unpairedTransfers: TableDef = {
  name: 'unpaired_transfers',
  kind: 'view',
  description:
    'Internal transfers (transfer_in, transfer_out) with no counterpart in another account type of the same account: the same asset and amount, the opposite sign, at most 60 seconds apart (sql/completeness/20_unpaired_transfers.sql; docs/completeness.md, "Internal transfers").',
  columns: [
    accountColumn,
    text('stream', "The stream of the transfer (the ledger row's source)."),
    text('account_type', 'The account type it moved in or out of.'),
    text('asset', 'The coin.'),
    instant('ts', 'When.'),
    text('source_id', "The record's id in its stream."),
    amount('amount', 'The amount, signed: + in, - out.'),
    text(
      'possible_reason',
      'What it may be: a record missing on the other side, a transfer with a sub-account, or one with an account type without records.',
    ),
  ],
};

export const openingBalances: TableDef = {
  name: 'opening_balances',
  kind: 'view',
  description:
    "What each running-balance chain says was held before its first record: that record's balance less its movement. None for an account read back to its opening; where the platform does not answer that far back, the holdings whose lots --opening-lots must give (sql/completeness/50_opening_balances.sql; docs/history.md).",
  columns: [
    accountColumn,
    text('stream', 'The stream whose records carry the balance: spot_tax_records (balance) or margin_records (total).'),
    text('partition', "The chain within it: '' for spot, crossed, or isolated and the pair."),
    text('asset', 'The coin of the chain.'),
    text('account_type', 'The account type the chain is the balance of: spot, margin_crossed or margin_isolated.'),
    instant('first_record_at', "The time of the chain's first record."),
    text('first_source_id', "That record's id."),
    amount('quantity', 'What was held before it: its balance less its amount and fee.'),
    amount(
      'first_fee',
      "That record's fee (0 for none): no published example settles whether a balance holds it, so quantity may be off by it.",
    ),
  ],
};

const holdingColumns = [
  accountColumn,
  text(
    'account_type',
    'spot, usdt_futures, coin_futures, usdc_futures, margin_crossed, margin_isolated, earn, funding or bots.',
  ),
  text('asset', 'The coin.'),
  instant('as_of', "The instant: the start or the end of a run's range, or a snapshot's time."),
  amount('quantity', 'The quantity held then; NULL when not known.'),
  text(
    'source',
    'How it is known: snapshot, rolled back (a later snapshot less the movements since), running balance, or not known.',
  ),
];

export const holdingQuantities: TableDef = {
  name: 'holding_quantities',
  kind: 'table',
  description:
    'Holdings without values: per account, account type and asset, the quantity at the start and the end of every run\'s range and at each snapshot, with how it is known (sql/completeness/30_holdings.sql; docs/completeness.md, "Holdings"). Read holdings for their values.',
  columns: holdingColumns,
};

export const holdings: TableDef = {
  name: 'holdings',
  kind: 'view',
  description:
    'Holdings at the start and the end of every run\'s range and at each snapshot, valued at the hour\'s close (sql/values/50_holdings.sql; docs/completeness.md, "Holdings"). Not known is listed, never guessed.',
  columns: [
    ...holdingColumns,
    amount(
      'value_usdt',
      'quantity x the USDT price at that instant: the close of the hourly candle that ends then, else of the hour that holds it (1 for USDT); NULL without a price.',
    ),
  ],
};

/** The valued holdings as the SQL models read them: the fiat's value always, under one name. */
export const lpHoldingsValued: TableDef = {
  name: 'lp_holdings_valued',
  kind: 'view',
  description:
    "holdings as the SQL models read them (sql/values/50_holdings.sql): the fiat's value always, as value_fiat. Read holdings.",
  columns: [
    ...holdings.columns,
    amount('value_fiat', "The value in the run's fiat (--fiat); NULL without a fiat, a price or a rate."),
  ],
};

export const reconciliation: TableDef = {
  name: 'reconciliation',
  kind: 'view',
  description:
    'Between each two consecutive snapshots of an account type, per asset: the change the snapshots show against the change the ledger books (sql/completeness/40_reconciliation.sql; docs/completeness.md, "Reconciliation").',
  columns: [
    accountColumn,
    text('account_type', 'The account type.'),
    text('asset', 'The coin.'),
    instant('period_start', 'The earlier snapshot.'),
    instant('period_end', 'The later snapshot.'),
    amount(
      'snapshot_change',
      "The later snapshot's quantity less the earlier's (an asset a snapshot does not list: none).",
    ),
    amount(
      'ledger_change',
      'The movements the ledger books in [period_start, period_end) in this account type; for earn and bots, the transfers in and out seen in the other streams. NULL where the ledger does not cover the span.',
    ),
    amount(
      'unexplained',
      'snapshot_change - ledger_change. For earn and bots, their own result (interest, trading), not a finding.',
    ),
    text('explanation', 'What the difference is, or why there is none to show.'),
  ],
};

export const botResults: TableDef = {
  name: 'bot_results',
  kind: 'view',
  description:
    'What the bots made or lost between two snapshots of their balances: the change in bot-assets less the net strategy transfers the other streams show. A residual, labelled so, never booked: no endpoint lists a bot\'s trades (sql/completeness/45_bot_results.sql; docs/completeness.md, "Bots and copy trading: residuals").',
  columns: [
    accountColumn,
    text('asset', 'The coin.'),
    instant('period_start', 'The earlier snapshot.'),
    instant('period_end', 'The later snapshot.'),
    amount('bot_assets_change', "The bots' balance at period_end less that at period_start (bot-assets)."),
    amount(
      'net_strategy_transfers',
      'The transfers into the bots less those out of them in the period, as the other streams book them.',
    ),
    amount(
      'residual',
      "bot_assets_change - net_strategy_transfers: the bots' own result (trading, fees), as far as the snapshots show it.",
    ),
    text('label', 'What the residual is: never income booked.'),
  ],
};

export const COMPLETENESS_TABLES: readonly TableDef[] = [
  balanceBreaks,
  signMismatches,
  unpairedTransfers,
  holdingQuantities,
  holdings,
  lpHoldingsValued,
  reconciliation,
  botResults,
  openingBalances,
];
