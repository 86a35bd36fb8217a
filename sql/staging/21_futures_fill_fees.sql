-- futures_fill_fees: one row per feeDetail entry of a fill (n counts from 1), renamed and cast.
-- The live service writes some fee fields null (live-notes.md); they stay NULL here.
CREATE OR REPLACE TABLE futures_fill_fees AS
WITH entries AS (
  SELECT
    account, partition, ts, r.tradeId AS trade_id, r.orderId AS order_id, r.symbol AS symbol,
    unnest(list_transform(r.feeDetail, (e, i) -> {'n': i, 'entry': e})) AS d
  FROM lp_futures_fills_parsed
)
SELECT
  account,
  partition                               AS product_type,
  trade_id,
  d.n                                     AS n,
  d.entry.feeCoin                         AS fee_coin,
  lp_amount(d.entry.totalFee)             AS total_fee,
  lp_amount(d.entry.totalDeductionFee)    AS total_deduction_fee,
  d.entry.deduction                       AS deduction,
  order_id,
  symbol,
  ts
FROM entries;

DROP TABLE lp_futures_fills_parsed;
