-- p2p_tax_records: GET /api/v2/tax/p2p-record, one row per record: a view on the typed columns written with each
-- record as it was loaded (typed_p2p_tax_records; sql/macros/10_typed_at_load.sql). The ledger reads balance,
-- else total (docs/platform.md).
CREATE OR REPLACE VIEW p2p_tax_records AS
SELECT
  account, id, coin, p2p_tax_type, balance, total, ts
FROM typed_p2p_tax_records;
