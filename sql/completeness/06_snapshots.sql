-- The per-asset snapshots as holdings and reconciliation read them (docs/completeness.md, "Balances"): one quantity
-- per account, account type, asset and snapshot (isolated margin's pairs and the two bot accounts summed; NULL when
-- a row lacks the fields its rule needs), and the snapshots whose every row has one.
-- creates: lp_snapshot_quantities, lp_whole_snapshots
-- reads: asset_balances, lp_total
-- params: -
CREATE OR REPLACE MACRO lp_snapshot_quantities() AS TABLE
SELECT account, account_type, asset, snapshot_at,
  CASE WHEN count(*) FILTER (WHERE quantity IS NULL) = 0 THEN TRY_CAST(lp_total(quantity) AS DECIMAL(38, 18)) END AS quantity
FROM asset_balances WHERE unavailable IS NULL GROUP BY ALL;

CREATE OR REPLACE MACRO lp_whole_snapshots() AS TABLE
SELECT DISTINCT account, account_type, snapshot_at FROM asset_balances WHERE unavailable IS NULL
EXCEPT SELECT account, account_type, snapshot_at FROM lp_snapshot_quantities() WHERE quantity IS NULL;
