-- deposits: GET /api/v2/spot/wallet/deposit-records (src/streams/deposits.ts holds its columns and their meaning).
-- Its macros are made when the warehouse opens, before its typing (lp_type_deposits, made from those columns:
-- sql/generated/typing.sql); the view deposits is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_deposits
-- reads: typed_deposits, lp_transfer_reference, lp_transfer_note
-- params: -

-- The ledger's legs: the deposit by its status (in when the catalog lacks the status); its reference and note
-- as a withdrawal's (lp_transfer_reference, lp_transfer_note: sql/macros/00_macros.sql).
CREATE OR REPLACE MACRO lp_legs_deposits() AS TABLE
SELECT account, 'deposits' AS source, order_id AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset, size AS written, 'in' AS default_direction,
  NULL AS symbol, lp_transfer_reference(dest, trade_id, order_id) AS reference,
  lp_transfer_note(dest, chain) AS note, '' AS pair_scope, '' AS pair_key, 'spot' AS account_type
FROM typed_deposits;
