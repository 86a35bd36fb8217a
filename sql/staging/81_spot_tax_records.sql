-- spot_tax_records: GET /api/v2/tax/spot-record, one row per record: a view on the typed columns written with each
-- record as it was loaded (typed_spot_tax_records; sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW spot_tax_records AS
SELECT
  account, id, coin, spot_tax_type, amount, fee, balance, biz_order_id, ts
FROM typed_spot_tax_records;
