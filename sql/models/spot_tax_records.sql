-- spot_tax_records: GET /api/v2/tax/spot-record (src/streams/tax-records.ts holds its columns and their meaning).
-- Its macros are made when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_spot_tax_records, lp_legs_spot_tax_records
-- reads: lp_amount, typed_spot_tax_records
-- params: -

-- Typed at load: one row per record, renamed and cast.
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

-- The ledger's legs: the record by spotTaxType, and its fee when not zero; the legs of one order
-- (bizOrderId) in one millisecond pair.
CREATE OR REPLACE MACRO lp_legs_spot_tax_records() AS TABLE
SELECT account, 'spot_tax_records' AS source, id AS source_id, 'main' AS leg, ts, 'spotTaxType' AS field, spot_tax_type AS type,
  'spotTaxType' AS main_field, spot_tax_type AS main_type, coin AS asset, amount AS written, NULL AS default_direction,
  NULL AS symbol, coalesce(biz_order_id, id) AS reference, spot_tax_type AS note, '' AS pair_scope, coalesce(biz_order_id, '') AS pair_key, 'spot' AS account_type
FROM typed_spot_tax_records
UNION ALL
SELECT account, 'spot_tax_records', id, 'fee', ts, 'fee', '*', 'spotTaxType', spot_tax_type, coin, fee, NULL,
  NULL, coalesce(biz_order_id, id), spot_tax_type, '', coalesce(biz_order_id, ''), 'spot'
FROM typed_spot_tax_records WHERE fee <> 0;
