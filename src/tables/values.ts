import { accountColumn, amount, instant, text, type Column, type TableDef } from '../streams/table.js';
import { ledger } from './ledger.js';

// Prices and values (sql/warehouse/005_prices.sql, sql/values/; docs/values.md).

export const priceCandles: TableDef = {
  name: 'price_candles',
  kind: 'table',
  description:
    "The platform's public hourly candles as received, each close as an exact decimal (sql/warehouse/005_prices.sql). One row per symbol, granularity and hour.",
  columns: [
    text('symbol', 'The pair (BTCUSDT, BGBBTC, USDTEUR, ...).'),
    text('granularity', "The candle's length: 1h."),
    instant('ts', "The candle's open, as an instant; it spans [ts, ts + 1 hour)."),
    amount('close', "The candle's close."),
    text('payload', 'The candle exactly as the platform sent it: a JSON array, as text.'),
    instant('fetched_at', 'When it was read.'),
  ],
};

export const priceCoverage: TableDef = {
  name: 'price_coverage',
  kind: 'table',
  description:
    "Which spans of a symbol's candles have been read: one row per request's span, committed with its candles, so that no span is read twice (sql/warehouse/005_prices.sql).",
  columns: [
    text('symbol', 'The pair.'),
    text('granularity', "The candles' length: 1h."),
    instant('window_start', 'Where the span starts (inclusive).'),
    instant('window_end', 'Where it ends (exclusive): the span is [window_start, window_end), at most 200 hours.'),
    { name: 'candles', type: 'INTEGER', description: 'How many candles the platform gave for the span.' },
    instant('fetched_at', 'When it was read.'),
    {
      name: 'missing_hours',
      type: 'TIMESTAMP WITH TIME ZONE[]',
      description:
        "The hours of the span (their open) of the symbol's trading life with no candle after two asks; NULL when none. Their movements have no value.",
    },
    text('missing_reason', 'Why those hours have no candle; NULL when none is missing.'),
  ],
};

export const pricePairs: TableDef = {
  name: 'price_pairs',
  kind: 'table',
  description:
    'Whether the platform lists a pair, as its answers said (sql/warehouse/005_prices.sql). A symbol known to be unlisted is not asked again.',
  columns: [
    text('symbol', 'The pair.'),
    {
      name: 'listed',
      type: 'BOOLEAN',
      description: 'false when the platform answered that the symbol does not exist (40034).',
    },
    instant('checked_at', 'When it was asked.'),
  ],
};

export const priceRoutes: TableDef = {
  name: 'price_routes',
  kind: 'table',
  description:
    'How each asset is priced in USDT: through symbol, or symbol times via; an asset with no row is unpriced (sql/warehouse/005_prices.sql, written by the prices stage).',
  columns: [
    text('asset', 'The coin.'),
    text('symbol', '<asset>USDT, <asset>USDC or <asset>BTC: the first of them the platform lists.'),
    text('via', "USDCUSDT or BTCUSDT, whose close of the same hour multiplies symbol's; NULL for a USDT pair."),
  ],
};

export const fiatRates: TableDef = {
  name: 'fiat_rates',
  kind: 'table',
  description:
    "Rates from the user's rates file (--fiat-rates): units of the fiat for one USDT, from ts until the next row's time (sql/warehouse/005_prices.sql).",
  columns: [
    text('fiat', 'The currency code (EUR, GBP, ...).'),
    instant('ts', 'When the rate starts to hold, as an instant.'),
    amount('rate', 'Units of the fiat one USDT buys.'),
    text('source', 'The name of the rates file it came from.'),
  ],
};

export const fxRates: TableDef = {
  name: 'fx_rates',
  kind: 'table',
  description:
    "The European Central Bank's euro reference rates read for the run's fiat when the platform has no USDT<fiat> pair (sql/warehouse/014_fx_rates.sql; docs/values.md): one row per currency and day the ECB published a rate.",
  columns: [
    {
      name: 'date',
      type: 'DATE',
      description: 'The day the rate is published for (TIME_PERIOD of the ECB series EXR.D.<currency>.EUR.SP00.A).',
    },
    text('currency', 'The ISO 4217 code (GBP, USD, ...).'),
    amount('rate', 'Units of the currency for 1 EUR, exactly as published (OBS_VALUE).'),
    text(
      'source',
      "Where it was read: ecb, the ECB's data portal (data-api.ecb.europa.eu). A --fiat-rates file's rates, per USDT, are in fiat_rates.",
    ),
  ],
};

export const fxCoverage: TableDef = {
  name: 'fx_coverage',
  kind: 'table',
  description:
    "Which days of a currency's euro rates have been read, one row per request, committed with its rates, so that no day is read twice (sql/warehouse/014_fx_rates.sql). A day of a span without a rate in fx_rates had none published (a weekend, a TARGET holiday).",
  columns: [
    text('currency', 'The ISO 4217 code.'),
    text('source', 'ecb.'),
    { name: 'first_date', type: 'DATE', description: 'The first day read (inclusive).' },
    {
      name: 'last_date',
      type: 'DATE',
      description: 'The last day read (inclusive): never today, whose rate may not be published yet.',
    },
    { name: 'rates', type: 'INTEGER', description: 'How many days of the span had a rate.' },
    text('url', 'The address read (the ECB publishes without a key).'),
    instant('fetched_at', 'When it was read.'),
  ],
};

export const fxRatesDaily: TableDef = {
  name: 'fx_rates_daily',
  kind: 'table',
  description:
    'Every day read of fx_coverage with the euro rate that values its movements: the rate published that day, else the last one before it in a stretch read without a gap, not older than 7 days (made again after each read by sql/load/fx_rates_daily.sql; docs/values.md). A day without a row has no rate.',
  columns: [
    { name: 'date', type: 'DATE', description: 'The day (UTC) whose movements the rate values.' },
    text('currency', 'The ISO 4217 code.'),
    amount('rate', 'Units of the currency for 1 EUR.'),
    {
      name: 'rate_date',
      type: 'DATE',
      description:
        "The day the rate was published for: date itself, or the last publishing day before it (a weekend takes the Friday's).",
    },
    text('source', 'ecb.'),
  ],
};

export const valuation: TableDef = {
  name: 'valuation',
  kind: 'table',
  description:
    'How ledger_valued and year_summary were last made: the fiat, where its rates come from, the time zone of years. One row; none before the first (sql/warehouse/005_prices.sql).',
  columns: [
    text('fiat', 'The fiat currency (--fiat); NULL without one.'),
    text(
      'fiat_source',
      "pair: the platform's USDT<fiat> candles; ecb: the USDTEUR candles and the ECB's euro rates (fx_rates); file: the user's rates (fiat_rates); NULL without a fiat.",
    ),
    text('time_zone', "The time zone of year_summary's years (--tz)."),
  ],
};

export const assetPrices: TableDef = {
  name: 'asset_prices',
  kind: 'view',
  description:
    "Each asset's USDT price per hour along its route (price_routes), from the hourly candles (sql/values/10_prices.sql). An hour with no candle on the route has no row.",
  columns: [
    text('asset', 'The coin.'),
    instant('ts', "The hour's start (the candle's open); the price holds for [ts, ts + 1 hour)."),
    amount(
      'price_usdt',
      "The close of its USDT pair's candle, or its USDC or BTC pair's close times that of USDCUSDT or BTCUSDT in the same hour, rounded half-even at the 18th decimal.",
    ),
    text('price_source', 'The route: the symbol, or `<symbol> x <via>`.'),
  ],
};

/** The columns ledger_priced adds to the ledger's, which ledger_valued keeps. */
const pricedColumns: readonly Column[] = [
  ...ledger.columns,
  amount(
    'price_usdt',
    "The asset's USDT price (asset_prices) for the hour that holds the row's time; 1 for USDT; NULL when unpriced.",
  ),
  amount(
    'value_usdt',
    'amount x price_usdt, exact, rounded half-even at the 18th decimal, signed like amount; NULL when unpriced.',
  ),
];

export const ledgerPriced: TableDef = {
  name: 'ledger_priced',
  kind: 'view',
  description:
    "The ledger with each row's USDT price and value (sql/values/10_prices.sql). Both are NULL when the asset has no price for the row's hour: unpriced, never guessed.",
  columns: pricedColumns,
};

export const ledgerValued: TableDef = {
  name: 'ledger_valued',
  kind: 'view',
  description:
    "ledger_priced, then with --fiat value_<fiat>: the value in that fiat, by the USDT<fiat> pair, by USDTEUR and the ECB's euro rates, or by the rates file (sql/values/20_fiat_*.sql, src/warehouse/values.ts), then tax_class: the rows and columns of ledger_valued.csv (sql/values/35_ledger_valued_rows.sql).",
  columns: [
    ...pricedColumns,
    text(
      'tax_class',
      "The tax class of the row's category in the type catalog (category_meaning), as ledger_valued.csv has it.",
    ),
  ],
};

/** The valued ledger as the SQL models read it: the fiat's value always, under one name. */
export const lpLedgerValued: TableDef = {
  name: 'lp_ledger_valued',
  kind: 'view',
  description:
    "ledger_valued as the SQL models read it (sql/values/20_fiat_*.sql): the fiat's value always, as value_fiat. Read ledger_valued.",
  columns: [
    ...pricedColumns,
    amount('value_fiat', "The value in the run's fiat (--fiat); NULL without a fiat, a price or a rate."),
  ],
};

export const yearSummary: TableDef = {
  name: 'year_summary',
  kind: 'view',
  description:
    "Per account, asset, tax class and year in the valuation's time zone: amount, values, entries (sql/values/30_year_summary.sql). With --fiat, value_<fiat> follows value_usdt.",
  columns: [
    accountColumn,
    text('asset', 'The coin.'),
    text('tax_class', "The tax class of the rows' category (category_meaning)."),
    amount(
      'amount',
      'The sum of the amounts, signed; NULL only for a total past what DECIMAL(38,18) holds, exact in year_summary.csv.',
    ),
    amount(
      'value_usdt',
      'The sum of value_usdt; NULL when any row has no value (a partial sum is never shown as a total), or past DECIMAL(38,18).',
    ),
    { name: 'year', type: 'INTEGER', description: "The year, in the valuation's time zone (--tz)." },
    { name: 'entries', type: 'INTEGER', description: 'How many ledger rows it sums.' },
    { name: 'unpriced_entries', type: 'INTEGER', description: 'How many of them have no USDT value.' },
  ],
};

/** The valued ledger rows the findings of the view plausibility read, of the whole ledger. */
export const lpPlausibilityRows: TableDef = {
  name: 'lp_plausibility_rows',
  kind: 'view',
  description:
    "The columns of ledger_valued the findings of plausibility read, valued as they are read, of the whole ledger (sql/values/60_plausibility.sql); an export's findings read its range's valued rows instead. Read plausibility.",
  columns: [
    'account',
    'entry_id',
    'ts',
    'asset',
    'amount',
    'source',
    'source_id',
    'trade_group',
    'tax_class',
    'value_usdt',
  ].map((name) => {
    const column = ledgerValued.columns.find((c) => c.name === name);
    if (column === undefined) throw new Error(`ledger_valued has no column ${name}`);
    return column;
  }),
};

export const plausibility: TableDef = {
  name: 'plausibility',
  kind: 'view',
  description:
    "Movements far outside the account's own scale, listed for review and never changed: a fee above 1% of its movement, interest above the balance that earned it, a refund above the fees paid (sql/values/60_plausibility.sql; docs/review.md).",
  columns: [
    accountColumn,
    text('asset', 'The coin that moved.'),
    instant('ts', 'When.'),
    text('source', 'The stream of the record.'),
    text('source_id', "The record's id in its stream."),
    text('finding', 'fee_above_1pct, income_above_holdings or refund_above_fees.'),
    amount('amount', 'The movement, signed as the ledger books it.'),
    amount('value_usdt', 'Its value in USDT; NULL without a price.'),
    amount(
      'compared_with',
      'What it was set beside: the value a trade gave, the quantity withdrawn, the balance before it, or the fees paid in the 366 days before it.',
    ),
    text('compared_as', 'What compared_with is, in words.'),
  ],
};

/** The prices' tables, then the views of values, in the order they are made. */
export const VALUE_TABLES: readonly TableDef[] = [
  priceCandles,
  priceCoverage,
  pricePairs,
  priceRoutes,
  fiatRates,
  fxRates,
  fxCoverage,
  fxRatesDaily,
  valuation,
  assetPrices,
  ledgerPriced,
  ledgerValued,
  yearSummary,
  lpLedgerValued,
  lpPlausibilityRows,
  plausibility,
];
