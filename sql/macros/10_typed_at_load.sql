-- Typed at load (README, "How the transform works"): the typed columns of a stream's records, from any relation
-- with raw_records' columns (account, stream, partition, key, ts, payload). The raw writer runs it over each
-- batch's records as they are committed (into typed_<stream>, in the same transaction), and the transform over
-- raw_records when typed_<stream> is not of this release (model_versions 'typed_at_load'): one definition for
-- both. The models of these streams are views on their typed tables (sql/staging).

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

-- withdrawals: GET /api/v2/spot/wallet/withdrawal-records, one row per withdrawal, renamed and cast. A changed
-- status replaces the row, as it replaces the raw record. fee is not in the spec's field table; the live service
-- sends it, negative (docs/platform.md, "Withdrawals and deposits").
CREATE OR REPLACE MACRO lp_type_withdrawals(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","clientOid":"VARCHAR",
      "type":"VARCHAR","dest":"VARCHAR","size":"VARCHAR","fee":"VARCHAR","status":"VARCHAR","fromAddress":"VARCHAR",
      "toAddress":"VARCHAR","chain":"VARCHAR","confirm":"VARCHAR","tag":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'withdrawals'
)
SELECT
  account,
  partition,
  key,
  r.orderId                   AS order_id,
  nullif(r.tradeId, '')       AS trade_id,
  r.coin                      AS coin,
  nullif(r.clientOid, '')     AS client_oid,
  r.type                      AS type,
  r.dest                      AS dest,
  lp_amount(r.size)           AS size,
  lp_amount(r.fee)            AS fee,
  r.status                    AS status,
  nullif(r.fromAddress, '')   AS from_address,
  nullif(r.toAddress, '')     AS to_address,
  nullif(r.chain, '')         AS chain,
  nullif(r.confirm, '')       AS confirm,
  nullif(r.tag, '')           AS tag,
  lp_ms(r.uTime)              AS u_time,
  ts
FROM source;

-- deposits: GET /api/v2/spot/wallet/deposit-records, one row per deposit, renamed and cast.
CREATE OR REPLACE MACRO lp_type_deposits(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","size":"VARCHAR",
      "status":"VARCHAR","toAddress":"VARCHAR","dest":"VARCHAR","chain":"VARCHAR","fromAddress":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'deposits'
)
SELECT
  account,
  partition,
  key,
  r.orderId                   AS order_id,
  nullif(r.tradeId, '')       AS trade_id,
  r.coin                      AS coin,
  r.type                      AS type,
  lp_amount(r.size)           AS size,
  r.status                    AS status,
  nullif(r.toAddress, '')     AS to_address,
  r.dest                      AS dest,
  nullif(r.chain, '')         AS chain,
  nullif(r.fromAddress, '')   AS from_address,
  lp_ms(r.uTime)              AS u_time,
  ts
FROM source;

-- futures_tax_records: GET /api/v2/tax/future-record, one row per record (funding fees, closes, liquidations,
-- settlements), renamed and cast; product_type from the partition.
CREATE OR REPLACE MACRO lp_type_futures_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","symbol":"VARCHAR","marginCoin":"VARCHAR","futureTaxType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'futures_tax_records'
)
SELECT
  account,
  partition,
  key,
  partition                   AS product_type,
  r.id                        AS id,
  nullif(r.symbol, '')        AS symbol,
  r.marginCoin                AS margin_coin,
  r.futureTaxType             AS future_tax_type,
  lp_amount(r.amount)         AS amount,
  lp_amount(r.fee)            AS fee,
  ts
FROM source;

-- spot_tax_records: GET /api/v2/tax/spot-record, one row per record, renamed and cast.
CREATE OR REPLACE MACRO lp_type_spot_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","spotTaxType":"VARCHAR","amount":"VARCHAR","fee":"VARCHAR",
      "balance":"VARCHAR","bizOrderId":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'spot_tax_records'
)
SELECT
  account,
  partition,
  key,
  r.id                        AS id,
  r.coin                      AS coin,
  r.spotTaxType               AS spot_tax_type,
  lp_amount(r.amount)         AS amount,
  lp_amount(r.fee)            AS fee,
  lp_amount(r.balance)        AS balance,
  nullif(r.bizOrderId, '')    AS biz_order_id,
  ts
FROM source;

-- p2p_tax_records: GET /api/v2/tax/p2p-record, one row per record, renamed and cast. The amount moved is in
-- `balance` in the newest docs' example and in `total` in earlier docs and SDK types (docs/platform.md): both are
-- kept under their names, and the ledger reads balance, else total.
CREATE OR REPLACE MACRO lp_type_p2p_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","p2pTaxType":"VARCHAR","balance":"VARCHAR","total":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'p2p_tax_records'
)
SELECT
  account,
  partition,
  key,
  r.id                        AS id,
  r.coin                      AS coin,
  r.p2pTaxType                AS p2p_tax_type,
  lp_amount(r.balance)        AS balance,
  lp_amount(r.total)          AS total,
  ts
FROM source;
