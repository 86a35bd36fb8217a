-- lp_ledger_valued without a fiat (docs/values.md): ledger_priced and an empty value_fiat. The table valuation
-- says which of sql/values/20_fiat_*.sql runs (src/warehouse/values.ts); the view users read, ledger_valued, shows
-- value_fiat as value_<fiat>, and without a fiat not at all.
-- creates: lp_ledger_valued, lp_fiat_rate_at, lp_fiat_eur_rate_at
-- reads: ledger_priced
-- params: -
CREATE OR REPLACE VIEW lp_ledger_valued AS
SELECT p.*, CAST(NULL AS DECIMAL(38, 18)) AS value_fiat
FROM ledger_priced AS p;

-- The fiat's rate for one USDT at an instant (holdings): none without a fiat.
CREATE OR REPLACE MACRO lp_fiat_rate_at(instant) AS CAST(NULL AS DECIMAL(38, 18));

-- The euro's rate in the fiat at an instant (holdings of EUR): only the ECB's rates give one (20_fiat_ecb.sql).
CREATE OR REPLACE MACRO lp_fiat_eur_rate_at(instant) AS CAST(NULL AS DECIMAL(38, 18));
