-- copy_profit_shares: GET /api/v3/copy/futures/copy-profit-details, a follower's profit-share settlements per
-- copy-trading project (src/streams/copy-trading.ts holds its columns and their meaning; docs/unified-accounts.md,
-- "Copy trading"). Its macros are made when the warehouse opens, before its typing (lp_type_copy_profit_shares, made
-- from those columns: sql/generated/typing.sql); the view is made by the transform (sql/generated/models.sql).
-- creates: lp_legs_copy_profit_shares
-- reads: typed_copy_profit_shares
-- params: -

-- The ledger's legs: the share paid, in the copy account, in USDT (the settlements name no coin; the follower's
-- copy amounts are all in USDT: docs/unified-accounts.md). A settlement that shared nothing moves nothing.
CREATE OR REPLACE MACRO lp_legs_copy_profit_shares() AS TABLE
SELECT account, 'copy_profit_shares' AS source, settle_key AS source_id, 'main' AS leg, ts, 'shareProfit' AS field, '*' AS type,
  'shareProfit' AS main_field, '*' AS main_type, 'USDT' AS asset, share_profit AS written, NULL AS default_direction,
  NULL AS symbol, project_id || ':' || settle_key AS reference, 'copy ' || project_id || ': profit share' AS note,
  project_id AS pair_scope, '' AS pair_key, 'copy' AS account_type
FROM typed_copy_profit_shares WHERE share_profit <> 0;
