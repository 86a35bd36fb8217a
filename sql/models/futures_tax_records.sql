-- futures_tax_records: GET /api/v2/tax/future-record (src/streams/tax-records.ts holds its columns and their
-- meaning). Created when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_futures_tax_records, lp_legs_futures_tax_records
-- reads: lp_amount, lp_futures_account_type, typed_futures_tax_records
-- params: -

-- Typed at load: one row per record (funding fees, closes, liquidations, settlements), renamed and cast;
-- product_type from the partition.
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

-- The ledger's legs: the record by futureTaxType, and its fee when not zero, paired by product type and symbol.
CREATE OR REPLACE MACRO lp_legs_futures_tax_records() AS TABLE
SELECT account, 'futures_tax_records' AS source, id AS source_id, 'main' AS leg, ts, 'futureTaxType' AS field, future_tax_type AS type,
  'futureTaxType' AS main_field, future_tax_type AS main_type, margin_coin AS asset, amount AS written, NULL AS default_direction,
  symbol, id AS reference, product_type || ' ' || future_tax_type AS note, product_type AS pair_scope, coalesce(symbol, '') AS pair_key, lp_futures_account_type(product_type) AS account_type
FROM typed_futures_tax_records
UNION ALL
SELECT account, 'futures_tax_records', id, 'fee', ts, 'fee', '*', 'futureTaxType', future_tax_type, margin_coin, fee, NULL,
  symbol, id, product_type || ' ' || future_tax_type, product_type, coalesce(symbol, ''), lp_futures_account_type(product_type)
FROM typed_futures_tax_records WHERE fee <> 0;
