-- spot_tax_records: GET /api/v2/tax/spot-record (src/streams/tax-records.ts holds its columns and their meaning). Its
-- macros are made when the warehouse opens, before its typing (lp_type_spot_tax_records, made from those columns:
-- sql/generated/typing.sql); the view is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_spot_tax_records
-- reads: typed_spot_tax_records
-- params: -

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
