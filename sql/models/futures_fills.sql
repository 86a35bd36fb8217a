-- futures_fills: GET /api/v2/mix/order/fill-history (src/streams/futures-fills.ts holds its columns and their
-- meaning). Created when the warehouse opens; the views futures_fills and futures_fill_fees are made by the
-- transform (sql/generated/models.sql).
-- creates: lp_type_futures_fills, lp_futures_fill_fees, lp_legs_futures_fills
-- reads: lp_amount, lp_fee_detail, lp_futures_account_type, typed_futures_fills
-- params: -

-- Typed at load: one row per fill, renamed and cast.
-- margin_coin: the fill's marginCoin when present, else USDT for USDT-FUTURES, USDC for USDC-FUTURES and
--   the symbol's base coin for COIN-FUTURES: BTC of the perpetual BTCUSD and of the delivery contract BTCUSDH23
--   (docs/ledger.md).
-- fee, fee_coin: the sum of totalFee over the feeDetail entries in the first entry's coin (NULL when none
--   gives one). An entry in another coin (a fee deducted in BGB, say) is not added into it.
-- fee_detail: the feeDetail entries exactly as received (JSON); futures_fill_fees has one row per entry,
--   and the ledger one trading_fee row per entry.
CREATE OR REPLACE MACRO lp_type_futures_fills(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"tradeId":"VARCHAR","orderId":"VARCHAR","symbol":"VARCHAR","price":"VARCHAR",
      "baseVolume":"VARCHAR","quoteVolume":"VARCHAR","side":"VARCHAR","tradeSide":"VARCHAR","posMode":"VARCHAR",
      "tradeScope":"VARCHAR","enterPointSource":"VARCHAR","profit":"VARCHAR","marginCoin":"VARCHAR","feeDetail":"JSON"}') AS r
  FROM query_table(src)
  WHERE stream = 'futures_fills'
),
with_fees AS (
  SELECT *, lp_fee_detail(r.feeDetail) AS fees FROM source
)
SELECT
  account,
  partition                      AS product_type,
  key,
  r.tradeId                      AS trade_id,
  r.orderId                      AS order_id,
  r.symbol                       AS symbol,
  lp_amount(r.price)             AS price,
  lp_amount(r.baseVolume)        AS base_volume,
  lp_amount(r.quoteVolume)       AS quote_volume,
  r.side                         AS side,
  r.tradeSide                    AS trade_side,
  r.posMode                      AS pos_mode,
  r.tradeScope                   AS trade_scope,
  r.enterPointSource             AS enter_point_source,
  lp_amount(r.profit)            AS profit,
  coalesce(
    nullif(r.marginCoin, ''),
    CASE partition
      WHEN 'USDT-FUTURES' THEN 'USDT'
      WHEN 'USDC-FUTURES' THEN 'USDC'
      -- COIN-FUTURES symbols are the base coin, USD, and for a delivery contract its month code and year
      -- (BTCUSD, BTCUSDH23): the base coin is the margin.
      ELSE regexp_replace(r.symbol, 'USD([A-Z][0-9]{2})?$', '')
    END
  )                              AS margin_coin,
  list_sum(list_transform(list_filter(fees, e -> e.feeCoin = fees[1].feeCoin), e -> lp_amount(e.totalFee))) AS fee,
  fees[1].feeCoin                AS fee_coin,
  r.feeDetail                    AS fee_detail,
  ts
FROM with_fees;

-- futures_fill_fees: one row per feeDetail entry of a fill (n counts from 1), renamed and cast, from
-- futures_fills.fee_detail. The live service writes some fee fields null (docs/platform.md, "Fills"): they stay NULL.
CREATE OR REPLACE MACRO lp_futures_fill_fees() AS TABLE
WITH entries AS (
  SELECT
    account, product_type, trade_id, order_id, symbol, ts,
    unnest(list_transform(lp_fee_detail(fee_detail), (e, i) -> {'n': i, 'entry': e})) AS d
  FROM typed_futures_fills
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

-- The ledger's legs (sql/ledger/10_ledger.sql): realized profit or loss in the margin coin when not zero (opening
-- fills have none), and one leg per feeDetail entry whose totalFee is not zero, in its fee coin. A fill pairs with
-- nothing: each fill's legs stand alone.
CREATE OR REPLACE MACRO lp_legs_futures_fills() AS TABLE
SELECT account, 'futures_fills' AS source, trade_id AS source_id, 'pnl' AS leg, ts, 'profit' AS field, '*' AS type,
  'profit' AS main_field, '*' AS main_type, margin_coin AS asset, profit AS written, NULL AS default_direction,
  symbol, order_id AS reference, product_type || ' ' || trade_side AS note, '' AS pair_scope, '' AS pair_key, lp_futures_account_type(product_type) AS account_type
FROM typed_futures_fills
WHERE profit <> 0
UNION ALL
SELECT account, 'futures_fills', trade_id, 'fee' || n, ts, 'feeDetail.deduction', coalesce(deduction, ''),
  'feeDetail.deduction', coalesce(deduction, ''), fee_coin, total_fee, NULL,
  symbol, order_id, product_type || CASE WHEN deduction = 'yes' THEN ' deduction' ELSE '' END, '', '', lp_futures_account_type(product_type)
FROM lp_futures_fill_fees()
WHERE total_fee <> 0;
