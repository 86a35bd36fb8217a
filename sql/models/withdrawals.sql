-- withdrawals: GET /api/v2/spot/wallet/withdrawal-records (src/streams/withdrawals.ts holds its columns and their
-- meaning). Its macros are made when the warehouse opens, before its typing (lp_type_withdrawals, made from those
-- columns: sql/generated/typing.sql); the view withdrawals is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_withdrawals
-- reads: typed_withdrawals, lp_transfer_reference, lp_transfer_note
-- params: -

-- The ledger's legs: the withdrawal by its status (out when the catalog lacks the status), and its fee when not
-- zero; its reference and note by lp_transfer_reference and lp_transfer_note (sql/macros/00_macros.sql).
CREATE OR REPLACE MACRO lp_legs_withdrawals() AS TABLE
SELECT account, 'withdrawals' AS source, order_id AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset, size AS written, 'out' AS default_direction,
  NULL AS symbol, lp_transfer_reference(dest, trade_id, order_id) AS reference,
  lp_transfer_note(dest, chain) AS note, '' AS pair_scope, '' AS pair_key, 'spot' AS account_type
FROM typed_withdrawals
UNION ALL
SELECT account, 'withdrawals', order_id, 'fee', ts, 'fee', '*', 'status', status, coin, fee, NULL,
  NULL, lp_transfer_reference(dest, trade_id, order_id), lp_transfer_note(dest, chain), '', '', 'spot'
FROM typed_withdrawals WHERE fee <> 0;
