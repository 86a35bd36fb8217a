-- margin_records: GET /api/v2/tax/margin-record, one row per record: a view on the typed columns written with
-- each record as it was loaded (typed_margin_records; how each column is made: sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW margin_records AS
SELECT
  account, margin_type, id, coin, symbol, margin_tax_type, amount, fee, total, ts
FROM typed_margin_records;
