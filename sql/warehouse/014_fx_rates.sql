-- Fourth release: the European Central Bank's euro reference rates, which value a fiat the platform has no
-- USDT<fiat> pair for (docs/values.md, "A fiat"; src/prices/ecb-rates.ts reads them).
-- creates: fx_rates, fx_coverage, fx_rates_daily
-- reads: -
-- params: -

-- One published rate: units of `currency` for 1 EUR on `date` (a day, as the ECB dates it). `source` says where
-- it was read: `ecb`, the ECB's data portal.
CREATE TABLE IF NOT EXISTS fx_rates (
  date DATE NOT NULL,
  currency VARCHAR NOT NULL,
  rate DECIMAL(38, 18) NOT NULL,
  source VARCHAR NOT NULL,
  PRIMARY KEY (currency, source, date)
);

-- Which days of a currency have been read, one row per request, committed with its rates: a day read is never
-- asked again, and a day with no rate in a span read (a weekend, a TARGET holiday) is known to have none. Only
-- days already over are recorded: today's rate may not be published yet.
CREATE TABLE IF NOT EXISTS fx_coverage (
  currency VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  first_date DATE NOT NULL,
  last_date DATE NOT NULL,
  rates INTEGER NOT NULL,
  url VARCHAR NOT NULL,
  fetched_at TIMESTAMPTZ NOT NULL
);

-- For every day read, the rate that values its movements (made again from the two tables above by
-- sql/load/fx_rates_daily.sql after each answer is stored).
CREATE TABLE IF NOT EXISTS fx_rates_daily (
  date DATE NOT NULL,
  currency VARCHAR NOT NULL,
  rate DECIMAL(38, 18) NOT NULL,
  rate_date DATE NOT NULL,
  source VARCHAR NOT NULL
);
