-- deposits: GET /api/v2/spot/wallet/deposit-records, one row per deposit: a view on the typed columns written
-- with each record as it was loaded (typed_deposits; sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW deposits AS
SELECT
  account, order_id, trade_id, coin, type, size, status, to_address, dest, chain, from_address, u_time, ts
FROM typed_deposits;
