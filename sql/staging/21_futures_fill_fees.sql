-- futures_fill_fees: one row per feeDetail entry of a fill (n counts from 1), renamed and cast; a view on
-- futures_fills.fee_detail. The live service writes some fee fields null (docs/platform.md, "Fills"): they stay NULL.
CREATE OR REPLACE VIEW futures_fill_fees AS
WITH entries AS (
  SELECT
    account, product_type, trade_id, order_id, symbol, ts,
    unnest(list_transform(lp_fee_detail(fee_detail), (e, i) -> {'n': i, 'entry': e})) AS d
  FROM futures_fills
)
SELECT
  account,
  product_type,
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
