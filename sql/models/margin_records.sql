-- margin_records: GET /api/v2/tax/margin-record (src/streams/margin-records.ts holds its columns and their meaning).
-- Its macros are made when the warehouse opens, before its typing (lp_type_margin_records, made from those columns:
-- sql/generated/typing.sql); the view margin_records on typed_margin_records is made by the transform
-- (sql/generated/models.sql).
-- creates: lp_legs_margin_records
-- reads: typed_margin_records
-- params: -

-- The ledger's legs of each record (sql/ledger/10_ledger.sql, which says what each column means): its main movement by
-- marginTaxType, and its fee when not zero. Like every stream's legs, read from the typed table (the view's columns and
-- the raw key): an incremental transform's copies of it in lp_delta are read the same way. A margin buy or sell is two
-- records of one symbol in one millisecond: the legs pair by margin type and symbol.
CREATE OR REPLACE MACRO lp_legs_margin_records() AS TABLE
SELECT account, 'margin_records' AS source, id AS source_id, 'main' AS leg, ts, 'marginTaxType' AS field, margin_tax_type AS type,
  'marginTaxType' AS main_field, margin_tax_type AS main_type, coin AS asset, amount AS written, NULL AS default_direction,
  symbol, id AS reference, margin_type || ' ' || margin_tax_type AS note, margin_type AS pair_scope, coalesce(symbol, '') AS pair_key, 'margin_' || margin_type AS account_type
FROM typed_margin_records
UNION ALL
SELECT account, 'margin_records', id, 'fee', ts, 'fee', '*', 'marginTaxType', margin_tax_type, coin, fee, NULL,
  symbol, id, margin_type || ' ' || margin_tax_type, margin_type, coalesce(symbol, ''), 'margin_' || margin_type
FROM typed_margin_records WHERE fee <> 0;
