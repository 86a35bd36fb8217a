-- lp_ledger_valued with the valuation's fiat (lp_valuation_fiat(), src/warehouse/values.ts) valued through the euro
-- (docs/values.md, "A fiat"), where the platform has no USDT<fiat> pair: the USDT value times the close of the
-- platform's USDTEUR candle of the row's hour times the ECB's euro rate of the row's day in UTC (fx_rates_daily, of
-- sql/load/fx_rates_daily.sql). The USDT-to-fiat rate, close x ECB rate, has nothing to round for the decimals the pair
-- and the ECB publish (lp_mul would round it half-even at the 18th); the value is rounded once, half-even at the 18th.
-- The fiat itself is worth its amount, EUR its amount times the ECB's rate. No candle or no rate: NULL.
-- The USDT-to-fiat rate is made once per hour (the hour's UTC day is its movements' day), not once per movement:
-- lp_mul repeats its arguments in its expansion, and a product of products per row cost ten times the pair's view.
-- creates: lp_ledger_valued, lp_fiat_eur_rate_at, lp_fiat_rate_at
-- reads: fx_rates_daily, ledger_priced, lp_hour, lp_mul, lp_valuation_fiat, price_candles
-- params: -
CREATE OR REPLACE VIEW lp_ledger_valued AS
SELECT
  p.*,
  CASE
    WHEN p.asset = lp_valuation_fiat() THEN p.amount
    WHEN p.asset = 'EUR' THEN lp_mul(p.amount, d.rate)
    ELSE lp_mul(p.value_usdt, r.rate)
  END AS value_fiat
FROM ledger_priced AS p
LEFT JOIN (
  SELECT c.ts, lp_mul(c.close, x.rate) AS rate
  FROM price_candles AS c
  JOIN fx_rates_daily AS x ON x.date = CAST(timezone('UTC', c.ts) AS DATE) AND x.currency = lp_valuation_fiat() AND x.source = 'ecb'
  WHERE c.symbol = 'USDTEUR' AND c.granularity = '1h'
) AS r ON r.ts = lp_hour(p.ts)
LEFT JOIN (
  SELECT date, rate FROM fx_rates_daily WHERE currency = lp_valuation_fiat() AND source = 'ecb'
) AS d ON d.date = CAST(timezone('UTC', p.ts) AS DATE);

-- The ECB's rate for 1 EUR at an instant (holdings): that of the UTC day that ends then or holds it.
CREATE OR REPLACE MACRO lp_fiat_eur_rate_at(instant) AS (
  SELECT any_value(rate) FROM fx_rates_daily
  WHERE currency = lp_valuation_fiat() AND source = 'ecb' AND date = CAST(timezone('UTC', instant - INTERVAL 1 MILLISECOND) AS DATE)
);

-- The fiat's rate for one USDT at an instant (holdings): the close of the USDTEUR candle that ends then, else of the
-- hour that holds it, times the ECB's rate of that day. One scalar subquery: the holdings' lp_mul repeats it.
CREATE OR REPLACE MACRO lp_fiat_rate_at(instant) AS (
  SELECT lp_mul(e.close, x.rate)
  FROM (
    SELECT arg_min(close, ts) AS close FROM price_candles
    WHERE symbol = 'USDTEUR' AND granularity = '1h' AND ts IN (lp_hour(instant - INTERVAL 1 MILLISECOND), lp_hour(instant))
  ) AS e,
  (
    SELECT any_value(rate) AS rate FROM fx_rates_daily
    WHERE currency = lp_valuation_fiat() AND source = 'ecb' AND date = CAST(timezone('UTC', instant - INTERVAL 1 MILLISECOND) AS DATE)
  ) AS x
);
