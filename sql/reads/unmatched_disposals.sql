-- The disposal slices of [lp_from, lp_to) of the accounts lp_accounts that no acquisition matched, per asset
-- (withdrawals, which are no disposals, aside; docs/history.md): a slice keeps its disposal's account, pooled or
-- not. Read by src/pipeline/history.ts.
-- creates: -
-- reads: disposals, lp_total
-- params: lp_accounts, lp_from, lp_to
SELECT asset, count(*) AS slices, CAST(lp_total(quantity) AS VARCHAR) AS quantity FROM disposals
     WHERE match_rule = 'unmatched' AND is_disposal AND disposed_at >= getvariable('lp_from') AND disposed_at < getvariable('lp_to')
       AND list_contains(getvariable('lp_accounts'), account)
     GROUP BY asset ORDER BY asset;
