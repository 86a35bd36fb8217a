-- margin_records: GET /api/v2/tax/margin-record, one row per record, from the typed columns written with each
-- record as it was loaded (typed_margin_records; how each column is made: sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE TABLE margin_records AS
SELECT account, margin_type, id, coin, symbol, margin_tax_type, amount, fee, total, ts
FROM typed_margin_records
-- Stored in export order (ts, then key): exports read it as it lies, without sorting again.
ORDER BY ts, id, account;
