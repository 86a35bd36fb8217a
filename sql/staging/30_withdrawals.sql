-- withdrawals: GET /api/v2/spot/wallet/withdrawal-records, one row per withdrawal: a view on the typed columns
-- written with each record as it was loaded (typed_withdrawals; sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW withdrawals AS
SELECT
  account, order_id, trade_id, coin, client_oid, type, dest, size, fee, status, from_address, to_address, chain,
  confirm, tag, u_time, ts
FROM typed_withdrawals;
