-- copy_transfers: GET /api/v3/copy/futures/copy-transfer-record, a follower's transfers into and out of a
-- copy-trading project's account (src/streams/copy-trading.ts holds its columns and their meaning;
-- docs/unified-accounts.md, "Copy trading"). Its macros are made when the warehouse opens, before its typing
-- (lp_type_copy_transfers, made from those columns: sql/generated/typing.sql); the view is made by the transform
-- (sql/generated/models.sql).
-- creates: lp_legs_copy_transfers
-- reads: typed_copy_transfers
-- params: -

-- The ledger's legs: the copy account's side of each transfer, by its status: into the copy account when it went
-- to copy, out when it came from there (the other side is the funding or unified account's own record).
CREATE OR REPLACE MACRO lp_legs_copy_transfers() AS TABLE
SELECT account, 'copy_transfers' AS source, transfer_key AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset,
  CASE WHEN to_type = 'copy' THEN abs(amount) WHEN from_type = 'copy' THEN -abs(amount) ELSE amount END AS written,
  NULL AS default_direction, NULL AS symbol, transfer_key AS reference,
  'copy ' || project_id || ': ' || from_type || ' to ' || to_type AS note, project_id AS pair_scope, '' AS pair_key, 'copy' AS account_type
FROM typed_copy_transfers;
