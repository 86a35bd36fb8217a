-- lp_ledger_valued with the valuation's fiat (lp_valuation_fiat(), src/warehouse/values.ts) priced by the user's rates
-- file (fiat_rates; docs/values.md): value_fiat = value_usdt x the rate in force at the row's time (the last rate at or
-- before it), exact, rounded half-even at the 18th decimal (lp_mul); the fiat itself is worth its amount. No rate yet:
-- NULL.
-- creates: lp_ledger_valued, lp_fiat_rate_at, lp_fiat_eur_rate_at
-- reads: fiat_rates, ledger_priced, lp_mul, lp_valuation_fiat
-- params: -
CREATE OR REPLACE VIEW lp_ledger_valued AS
SELECT
  p.*,
  CASE WHEN p.asset = lp_valuation_fiat() THEN p.amount ELSE lp_mul(p.value_usdt, r.rate) END AS value_fiat
FROM ledger_priced AS p
ASOF LEFT JOIN (
  SELECT ts, rate FROM fiat_rates WHERE fiat = lp_valuation_fiat()
) AS r ON p.ts >= r.ts;

-- The fiat's rate for one USDT at an instant (holdings): the user's rate in force then.
CREATE OR REPLACE MACRO lp_fiat_rate_at(instant) AS (
  SELECT arg_max(rate, ts) FROM fiat_rates WHERE fiat = lp_valuation_fiat() AND ts <= instant
);

-- The euro's rate in the fiat at an instant (holdings of EUR): only the ECB's rates give one (20_fiat_ecb.sql).
CREATE OR REPLACE MACRO lp_fiat_eur_rate_at(instant) AS CAST(NULL AS DECIMAL(38, 18));
