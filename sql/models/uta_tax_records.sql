-- uta_tax_records: GET /api/v3/tax/records, a unified account's tax records (src/streams/uta-tax-records.ts holds its
-- columns and their meaning; docs/unified-accounts.md). Its macros are made when the warehouse opens; the view is made by
-- the transform (sql/generated/models.sql).
-- creates: lp_type_uta_tax_records, lp_legs_uta_tax_records
-- reads: lp_amount, typed_uta_tax_records
-- params: -

-- Typed at load: one row per record, renamed and cast.
CREATE OR REPLACE MACRO lp_type_uta_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","amount":"VARCHAR","fee":"VARCHAR","balance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'uta_tax_records'
)
SELECT
  account,
  partition                   AS biz_type,
  key,
  r.id                        AS id,
  r.coin                      AS coin,
  r.type                      AS type,
  lp_amount(r.amount)         AS amount,
  lp_amount(r.fee)            AS fee,
  lp_amount(r.balance)        AS balance,
  ts
FROM source;

-- The ledger's legs: the record by its type, and its fee when not zero, in the unified account. The records carry no
-- order id: the legs of one bizType in one millisecond pair (the docs' example: a buy's ORDER_DEALT_IN,
-- ORDER_DEALT_FROZEN_OUT and ORDER_PLF_FEE_OUT share their ts).
CREATE OR REPLACE MACRO lp_legs_uta_tax_records() AS TABLE
SELECT account, 'uta_tax_records' AS source, id AS source_id, 'main' AS leg, ts, 'type' AS field, type AS type,
  'type' AS main_field, type AS main_type, coin AS asset, amount AS written, NULL AS default_direction,
  NULL AS symbol, id AS reference, biz_type || ' ' || type AS note, biz_type AS pair_scope, '' AS pair_key, 'unified' AS account_type
FROM typed_uta_tax_records
UNION ALL
SELECT account, 'uta_tax_records', id, 'fee', ts, 'fee', '*', 'type', type, coin, fee, NULL,
  NULL, id, biz_type || ' ' || type, biz_type, '', 'unified'
FROM typed_uta_tax_records WHERE fee <> 0;
