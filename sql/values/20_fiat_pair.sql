-- lp_ledger_valued with the valuation's fiat (lp_valuation_fiat(), src/warehouse/values.ts) priced by the platform's
-- USDT<fiat> pair (docs/values.md): value_fiat = value_usdt x the close of the USDT<fiat> candle of the row's hour,
-- exact, rounded half-even at the 18th decimal (lp_mul); the fiat itself is worth its amount. No candle for the hour:
-- NULL.
-- creates: lp_ledger_valued, lp_fiat_rate_at, lp_fiat_eur_rate_at
-- reads: ledger_priced, lp_hour, lp_mul, lp_valuation_fiat, price_candles
-- params: -
CREATE OR REPLACE VIEW lp_ledger_valued AS
SELECT
  p.*,
  CASE WHEN p.asset = lp_valuation_fiat() THEN p.amount ELSE lp_mul(p.value_usdt, r.rate) END AS value_fiat
FROM ledger_priced AS p
LEFT JOIN (
  SELECT ts, close AS rate FROM price_candles
  WHERE symbol = 'USDT' || lp_valuation_fiat() AND granularity = '1h'
) AS r ON r.ts = lp_hour(p.ts);

-- The fiat's rate for one USDT at an instant (holdings): the close of the USDT<fiat> candle that ends then, else of
-- the hour that holds it (sql/values/50_holdings.sql).
CREATE OR REPLACE MACRO lp_fiat_rate_at(instant) AS (
  SELECT arg_min(close, ts) FROM price_candles
  WHERE symbol = 'USDT' || lp_valuation_fiat() AND granularity = '1h'
    AND ts IN (lp_hour(instant - INTERVAL 1 MILLISECOND), lp_hour(instant))
);

-- The euro's rate in the fiat at an instant (holdings of EUR): only the ECB's rates give one (20_fiat_ecb.sql).
CREATE OR REPLACE MACRO lp_fiat_eur_rate_at(instant) AS CAST(NULL AS DECIMAL(38, 18));
