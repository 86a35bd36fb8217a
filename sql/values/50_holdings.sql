-- Holdings valued (docs/completeness.md, "Holdings"): holding_quantities (sql/completeness/30_holdings.sql) with
-- value_usdt = quantity x the USDT price of the hour holding `as_of` (asset_prices; 1 for USDT), and value_fiat at the
-- valuation's rate of that instant (lp_fiat_rate_at, of the fiat's file in sql/values/20_fiat_*.sql); the fiat itself
-- is worth its quantity, EUR its quantity at the ECB's rate when the fiat goes through the euro (lp_fiat_eur_rate_at,
-- NULL otherwise). src/warehouse/values.ts names value_fiat after the fiat in the view holdings.
-- creates: lp_holdings_valued
-- reads: asset_prices, holding_quantities, lp_fiat_eur_rate_at, lp_fiat_rate_at, lp_hour, lp_mul, lp_valuation_fiat
-- params: -
CREATE OR REPLACE VIEW lp_holdings_valued AS
WITH priced AS (
  SELECT h.*,
    CASE WHEN h.asset = 'USDT' THEN h.quantity ELSE lp_mul(h.quantity, coalesce(e.price_usdt, p.price_usdt)) END AS value_usdt
  FROM holding_quantities AS h
  LEFT JOIN asset_prices AS e ON e.asset = h.asset AND e.ts = lp_hour(h.as_of - INTERVAL 1 MILLISECOND)
  LEFT JOIN asset_prices AS p ON p.asset = h.asset AND p.ts = lp_hour(h.as_of)
)
SELECT *,
  CASE
    WHEN asset = lp_valuation_fiat() THEN quantity
    WHEN asset = 'EUR' AND lp_fiat_eur_rate_at(priced.as_of) IS NOT NULL THEN lp_mul(quantity, lp_fiat_eur_rate_at(priced.as_of))
    ELSE lp_mul(value_usdt, lp_fiat_rate_at(priced.as_of))
  END AS value_fiat
FROM priced;
