-- Values in USDT (docs/values.md). asset_prices: each asset's USDT price per hour along its route (price_routes,
-- written by the prices stage): the close of its USDT pair's candle, or the close of its USDC or BTC pair's
-- candle times that of USDCUSDT or BTCUSDT in the same hour, rounded half-even at the 18th decimal (lp_mul).
-- An hour with no candle on the route has no price.
-- creates: asset_prices, ledger_priced
-- reads: ledger, lp_hour, lp_mul, price_candles, price_routes
-- params: -
CREATE OR REPLACE VIEW asset_prices AS
SELECT
  r.asset, c.ts,
  CASE WHEN r.via IS NULL THEN c.close ELSE lp_mul(c.close, v.close) END AS price_usdt,
  r.symbol || coalesce(' x ' || r.via, '') AS price_source
FROM price_routes AS r
JOIN price_candles AS c ON c.symbol = r.symbol AND c.granularity = '1h'
LEFT JOIN price_candles AS v ON v.symbol = r.via AND v.granularity = '1h' AND v.ts = c.ts
WHERE r.via IS NULL OR v.ts IS NOT NULL;

-- ledger_priced: every ledger row with price_usdt (the close of the hourly candle that holds its time; 1 for
-- USDT, the quote) and value_usdt = amount x price_usdt, exact, rounded half-even at the 18th decimal. No price:
-- both NULL, and the row is listed as unpriced (src/prices/unpriced.ts). ledger_valued adds the fiat value to it.
CREATE OR REPLACE VIEW ledger_priced AS
SELECT
  l.*,
  CASE WHEN l.asset = 'USDT' THEN CAST(1 AS DECIMAL(38, 18)) ELSE p.price_usdt END AS price_usdt,
  CASE WHEN l.asset = 'USDT' THEN l.amount ELSE lp_mul(l.amount, p.price_usdt) END AS value_usdt
FROM ledger AS l
LEFT JOIN asset_prices AS p ON p.asset = l.asset AND p.ts = lp_hour(l.ts);
