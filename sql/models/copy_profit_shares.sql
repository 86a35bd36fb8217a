-- copy_profit_shares: GET /api/v3/copy/futures/copy-profit-details, a follower's profit-share settlements per copy-trading
-- project (src/streams/copy-trading.ts holds its columns and their meaning; docs/unified-accounts.md, "Copy trading").
-- Its macros are made when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_copy_profit_shares, lp_legs_copy_profit_shares
-- reads: lp_amount, typed_copy_profit_shares
-- params: -

-- Typed at load: one row per settlement, renamed and cast; its key (the settlement time: it has no id) kept too.
CREATE OR REPLACE MACRO lp_type_copy_profit_shares(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"profit":"VARCHAR","allocatedPnl":"VARCHAR","pendingPnl":"VARCHAR","shareRatio":"VARCHAR","shareProfit":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'copy_profit_shares'
)
SELECT
  account,
  partition                     AS project_id,
  key,
  key                           AS settle_key,
  lp_amount(r.profit)           AS profit,
  lp_amount(r.allocatedPnl)     AS allocated_pnl,
  lp_amount(r.pendingPnl)       AS pending_pnl,
  lp_amount(r.shareRatio)       AS share_ratio,
  lp_amount(r.shareProfit)      AS share_profit,
  ts
FROM source;

-- The ledger's legs: the share paid, in the copy account, in USDT (the settlements name no coin; the follower's
-- copy amounts are all in USDT: docs/unified-accounts.md). A settlement that shared nothing moves nothing.
CREATE OR REPLACE MACRO lp_legs_copy_profit_shares() AS TABLE
SELECT account, 'copy_profit_shares' AS source, settle_key AS source_id, 'main' AS leg, ts, 'shareProfit' AS field, '*' AS type,
  'shareProfit' AS main_field, '*' AS main_type, 'USDT' AS asset, share_profit AS written, NULL AS default_direction,
  NULL AS symbol, project_id || ':' || settle_key AS reference, 'copy ' || project_id || ': profit share' AS note,
  project_id AS pair_scope, '' AS pair_key, 'copy' AS account_type
FROM typed_copy_profit_shares WHERE share_profit <> 0;
