-- Prices (docs/values.md): the platform's public hourly candles, the pairs it has or has not, the route each
-- asset is priced by, and the rates a user supplies for a fiat currency the platform has no pair for.
-- creates: price_candles, price_coverage, price_pairs, price_routes, fiat_rates, valuation
-- reads: -
-- params: -

-- One candle as received (payload: the JSON array the platform sent) and its close as an exact decimal.
-- ts is the candle's open; it spans [ts, ts + 1 hour).
CREATE TABLE IF NOT EXISTS price_candles (
  symbol VARCHAR NOT NULL,
  granularity VARCHAR NOT NULL,
  ts TIMESTAMPTZ NOT NULL,
  close DECIMAL(38, 18) NOT NULL,
  payload VARCHAR NOT NULL,
  fetched_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (symbol, granularity, ts)
);

-- Which spans of a symbol's candles have been read (each request's span, committed with its candles).
CREATE TABLE IF NOT EXISTS price_coverage (
  symbol VARCHAR NOT NULL,
  granularity VARCHAR NOT NULL,
  window_start TIMESTAMPTZ NOT NULL,
  window_end TIMESTAMPTZ NOT NULL,
  candles INTEGER NOT NULL,
  fetched_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (symbol, granularity, window_start)
);

-- Whether the platform has a pair: listed = false when it answered that the symbol does not exist.
CREATE TABLE IF NOT EXISTS price_pairs (
  symbol VARCHAR PRIMARY KEY,
  listed BOOLEAN NOT NULL,
  checked_at TIMESTAMPTZ NOT NULL
);

-- How each asset is priced in USDT: through `symbol` (<asset>USDT), or through `symbol` times `via`
-- (<asset>USDC times USDCUSDT, <asset>BTC times BTCUSDT). No row: unpriced.
CREATE TABLE IF NOT EXISTS price_routes (
  asset VARCHAR PRIMARY KEY,
  symbol VARCHAR NOT NULL,
  via VARCHAR
);

-- Rates from the user's rates file: units of `fiat` for one USDT, from `ts` until the next row's time.
CREATE TABLE IF NOT EXISTS fiat_rates (
  fiat VARCHAR NOT NULL,
  ts TIMESTAMPTZ NOT NULL,
  rate DECIMAL(38, 18) NOT NULL,
  source VARCHAR NOT NULL,
  PRIMARY KEY (fiat, ts)
);

-- How the views ledger_valued and year_summary were last made (src/warehouse/values.ts): the fiat currency and
-- where its rates come from, and the time zone of year_summary's years. One row; none before the first.
CREATE TABLE IF NOT EXISTS valuation (
  fiat VARCHAR,
  fiat_source VARCHAR,
  time_zone VARCHAR NOT NULL
);
