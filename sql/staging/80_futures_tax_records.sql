-- futures_tax_records: GET /api/v2/tax/future-record, one row per record (funding fees, closes, liquidations,
-- settlements): a view on the typed columns written with each record as it was loaded (typed_futures_tax_records;
-- sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW futures_tax_records AS
SELECT
  account, product_type, id, symbol, margin_coin, future_tax_type, amount, fee, ts
FROM typed_futures_tax_records;
