import { accountColumn, amount, instant, text, type Column, type TableDef } from '../streams/table.js';

// Realized gains (sql/gains/, sql/gains-tables/, src/gains/; docs/gains.md): made by the export and the transform
// from the valued ledger, with the cost basis, pool, tax year and opening lots of the command.

const integer = (name: string, description: string): Column => ({ name, type: 'INTEGER', description });

const disposalColumns: Column[] = [
  text(
    'account',
    "The account of the disposal; with --pool all and the uk rules, 'all' when one day's disposals came from several accounts.",
  ),
  text('asset', 'The token disposed of.'),
  amount(
    'quantity',
    'The quantity of this slice: the part of the disposal matched with one acquisition, the pool, or nothing.',
  ),
  instant('disposed_at', "When it was disposed of (the ledger row's time)."),
  instant(
    'acquired_at',
    'When the matched acquisition was made; NULL for a pool (average, section 104) or when nothing matched.',
  ),
  integer(
    'holding_days',
    "Days from the acquisition's date to the disposal's, in the time zone of the rules (--tz; Europe/London for uk); NULL for a pool.",
  ),
  amount(
    'proceeds',
    'Its share of the proceeds: the value of what was received for it (the unit column says in what); NULL for a withdrawal, which is not a disposal.',
  ),
  amount(
    'cost',
    "The allowable cost of what was matched: the lot's or the pool's share, rounded half-even at the 18th decimal; 0 when nothing matched.",
  ),
  amount('fees', "Its share of the trade's fees, an allowable cost; NULL for a withdrawal."),
  amount('gain', 'proceeds - cost - fees; NULL for a withdrawal.'),
  text(
    'match_rule',
    'fifo, hifo, average, same_day, thirty_day, section_104, or unmatched (nothing to match: zero cost, flagged); withdrawal_<rule> for coins withdrawn, which leave the lots without a gain.',
  ),
  text('trade_group', 'The trade the disposal was a leg of, if any.'),
  text(
    'flags',
    'Space-separated: no_acquisition (nothing matched, zero cost), unvalued (no value: counted as 0), own_value (the other side had no value), fee (a fee paid in a token), deposit_at_market_value, opening_lot, or the tax class of a movement that is not a trade.',
  ),
  text(
    'tax_year',
    'The tax year of the disposal: its year, or for a --tax-year-start other than 01-01 the year it starts in and the next (2025-26).',
  ),
  text(
    'term',
    'short (held a year or less) or long (more than a year, calendar dates); unknown when nothing matched; NULL for a pool.',
  ),
  text('unit', "The currency of proceeds, cost, fees and gain: the run's --fiat, else USDT."),
  text('cost_basis', 'The method that matched it: fifo, hifo, average or uk.'),
  {
    name: 'is_disposal',
    type: 'BOOLEAN',
    description:
      "false for a withdrawal's slices (match_rule withdrawal_<rule>), which leave the lots without being disposed of: sum the rows WHERE is_disposal to add up what gains_summary and Form 8949 do.",
  },
];

export const disposals: TableDef = {
  name: 'disposals',
  kind: 'table',
  description:
    'One row per matched slice of a disposal, or of a withdrawal, which is not one (is_disposal false): quantity, dates, proceeds, cost, fees and gain, by the cost basis of the command (src/gains/; docs/gains.md).',
  columns: disposalColumns,
};

export const lots: TableDef = {
  name: 'lots',
  kind: 'table',
  description:
    'The lots open at the end of the range: per lot for fifo and hifo, one pool row per asset for average and uk (acquired_at NULL) (docs/gains.md).',
  columns: [
    accountColumn,
    text('asset', 'The token.'),
    amount('quantity', 'What is left of the lot.'),
    amount('cost', 'What is left of its cost, in the unit.'),
    instant('acquired_at', 'When it was acquired; NULL for a pool.'),
    text('unit', 'The currency of cost.'),
    text('cost_basis', 'The method: fifo, hifo, average or uk.'),
  ],
};

export const gainsSummary: TableDef = {
  name: 'gains_summary',
  kind: 'view',
  description:
    "Realized gains per account, asset, tax year and term, from the disposals' slices WHERE is_disposal: a withdrawal's slices are not disposals and are left out (docs/gains.md).",
  columns: [
    accountColumn,
    text('asset', 'The token.'),
    text('tax_year', 'The tax year (disposals.tax_year).'),
    text('term', 'short, long, unknown (nothing matched) or pool.'),
    text('unit', 'The currency of the amounts.'),
    { name: 'disposals', type: 'BIGINT', description: "How many disposal slices (withdrawals' not among them)." },
    amount('quantity', 'The quantity disposed of.'),
    amount('proceeds', 'The sum of proceeds.'),
    amount('cost', 'The sum of allowable costs.'),
    amount('fees', 'The sum of fees.'),
    amount('gain', 'The sum of gains and losses: proceeds - cost - fees.'),
    amount('gains', 'The sum of the slices with a gain.'),
    amount('losses', 'The sum of the slices with a loss (negative).'),
    {
      name: 'unmatched',
      type: 'BIGINT',
      description: 'Slices with nothing to match (zero cost, flagged no_acquisition): give --opening-lots.',
    },
  ],
};

const bigint = (name: string, description: string): Column => ({ name, type: 'BIGINT', description });

/**
 * What the gains engine keeps between runs (sql/warehouse/016_gains_kept.sql; docs/gains.md, "Kept, not recomputed").
 */
export const ledgerChanges: TableDef = {
  name: 'ledger_changes',
  kind: 'table',
  description:
    'Where the ledger\'s rows or their values changed since the gains last read them, noted by the transform and the prices stage and emptied once the gains take them in (sql/warehouse/016_gains_kept.sql; docs/gains.md, "Kept, not recomputed").',
  columns: [
    instant('since', 'The earliest instant changed; NULL for the whole ledger (made whole).'),
    text(
      'what',
      "What changed, in words: 'the whole ledger made again', rows booked again that differ, 'candles new or changed'.",
    ),
  ],
};

export const gainsKept: TableDef = {
  name: 'gains_kept',
  kind: 'table',
  description:
    'The computation the tables disposals and lots hold, one row (none: the next computation starts from the first movement): what it was computed from and how far it took in the movements (src/gains/kept.ts; docs/gains.md, "Kept, not recomputed").',
  columns: [
    text(
      'fingerprint',
      "The digest of its inputs: the settings that matter, the opening lots, the catalog's meanings, the price routes and the fiat's rates.",
    ),
    bigint('head_ms', 'Every movement before this instant (ms since the epoch, UTC) was taken in.'),
    bigint('until_ms', 'The end of the range it was asked for (ms since the epoch, UTC).'),
    bigint(
      'open_at_ms',
      'For the UK rules, the instant from which days are still open to their 30 days (ms since the epoch, UTC).',
    ),
  ],
};

export const gainsKeptPoints: TableDef = {
  name: 'gains_kept_points',
  kind: 'table',
  description:
    "The instants the gains engine can go on from: each month's start (UTC) and the last head (src/gains/kept.ts).",
  columns: [bigint('at_ms', 'The instant (ms since the epoch, UTC).')],
};

export const gainsKeptStates: TableDef = {
  name: 'gains_kept_states',
  kind: 'table',
  description:
    "The gains engine's state per pool and asset at the kept instants, as JSON: the lots open, or the pool, and the UK days still open; a pool and asset has a row only when it moved since its row before (src/gains/matcher-state.ts).",
  columns: [
    bigint('at_ms', 'The kept instant (ms since the epoch, UTC): the state after every movement before it.'),
    text('pool', 'The pool: the account, or all with --pool all.'),
    text('asset', 'The asset.'),
    text('state', 'The state, as JSON (src/gains/matcher-state.ts).'),
  ],
};

export const GAINS_TABLES: readonly TableDef[] = [
  disposals,
  lots,
  gainsSummary,
  ledgerChanges,
  gainsKept,
  gainsKeptPoints,
  gainsKeptStates,
];
