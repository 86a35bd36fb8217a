-- copy_transfers: GET /api/v3/copy/futures/copy-transfer-record, a follower's transfers into and out of a copy-trading
-- project's account (src/streams/copy-trading.ts holds its columns and their meaning; docs/unified-accounts.md, "Copy
-- trading"). Its macros are made when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_copy_transfers, lp_legs_copy_transfers
-- reads: lp_amount, typed_copy_transfers
-- params: -

-- Typed at load: one row per transfer, renamed and cast; its key (time, sides, coin, amount: it has no id) kept too.
CREATE OR REPLACE MACRO lp_type_copy_transfers(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"fromType":"VARCHAR","toType":"VARCHAR","coin":"VARCHAR","amount":"VARCHAR","status":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'copy_transfers'
)
SELECT
  account,
  partition                 AS project_id,
  key,
  key                       AS transfer_key,
  r.fromType                AS from_type,
  r.toType                  AS to_type,
  r.coin                    AS coin,
  lp_amount(r.amount)       AS amount,
  r.status                  AS status,
  ts
FROM source;

-- The ledger's legs: the copy account's side of each transfer, by its status: into the copy account when it went
-- to copy, out when it came from there (the other side is the funding or unified account's own record).
CREATE OR REPLACE MACRO lp_legs_copy_transfers() AS TABLE
SELECT account, 'copy_transfers' AS source, transfer_key AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset,
  CASE WHEN to_type = 'copy' THEN abs(amount) WHEN from_type = 'copy' THEN -abs(amount) ELSE amount END AS written,
  NULL AS default_direction, NULL AS symbol, transfer_key AS reference,
  'copy ' || project_id || ': ' || from_type || ' to ' || to_type AS note, project_id AS pair_scope, '' AS pair_key, 'copy' AS account_type
FROM typed_copy_transfers;
