-- Typed at load (README, "How the transform works"): the typed columns of a stream's records, from any relation
-- with raw_records' columns (account, stream, partition, key, ts, payload). The raw writer runs it over each
-- batch's records as they are committed (into typed_<stream>, in the same transaction), and the transform over
-- raw_records when typed_<stream> is not of this release (model_versions 'typed'): one definition for both.

-- futures_fills: GET /api/v2/mix/order/fill-history, one row per fill, renamed and cast.
-- margin_coin: the fill's marginCoin when present, else USDT for USDT-FUTURES, USDC for USDC-FUTURES and
--   the symbol's base coin for COIN-FUTURES: BTC of the perpetual BTCUSD and of the delivery contract BTCUSDH23
--   (README, "The ledger").
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

-- margin_records: GET /api/v2/tax/margin-record, one row per record, renamed and cast, nothing else.
CREATE OR REPLACE MACRO lp_type_margin_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","symbol":"VARCHAR","marginTaxType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR","total":"VARCHAR","balance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'margin_records'
)
SELECT
  account,
  partition                 AS margin_type,
  key,
  r.id                      AS id,
  r.coin                    AS coin,
  nullif(r.symbol, '')      AS symbol,
  r.marginTaxType           AS margin_tax_type,
  lp_amount(r.amount)       AS amount,
  lp_amount(r.fee)          AS fee,
  -- The docs name it total; a client built on real records reads balance (docs/platform.md).
  lp_amount(coalesce(r.total, r.balance)) AS total,
  ts
FROM source;
