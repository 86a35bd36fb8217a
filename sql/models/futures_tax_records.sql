-- futures_tax_records: GET /api/v2/tax/future-record (src/streams/tax-records.ts holds its columns and their
-- meaning). Its macros are made when the warehouse opens, before its typing (lp_type_futures_tax_records, made from
-- those columns: sql/generated/typing.sql); the view is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_futures_tax_records
-- reads: typed_futures_tax_records, lp_futures_account_type
-- params: -

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
