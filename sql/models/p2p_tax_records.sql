-- p2p_tax_records: GET /api/v2/tax/p2p-record (src/streams/tax-records.ts holds its columns and their meaning). Its
-- macros are made when the warehouse opens, before its typing (lp_type_p2p_tax_records, made from those columns:
-- sql/generated/typing.sql); the view is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_p2p_tax_records
-- reads: typed_p2p_tax_records
-- params: -

-- The ledger's legs: the record by p2pTaxType; it has no fee.
CREATE OR REPLACE MACRO lp_legs_p2p_tax_records() AS TABLE
SELECT account, 'p2p_tax_records' AS source, id AS source_id, 'main' AS leg, ts, 'p2pTaxType' AS field, p2p_tax_type AS type,
  'p2pTaxType' AS main_field, p2p_tax_type AS main_type, coin AS asset, coalesce(balance, total) AS written, NULL AS default_direction,
  NULL AS symbol, id AS reference, p2p_tax_type AS note, '' AS pair_scope, '' AS pair_key, 'funding' AS account_type
FROM typed_p2p_tax_records;
