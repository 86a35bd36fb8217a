-- The account types whose balance endpoint the key could not read, at each account's latest snapshot
-- (docs/completeness.md, "Holdings"; src/reads/completeness.ts).
-- creates: -
-- reads: asset_balances
-- params: -
SELECT account, account_type, unavailable FROM (SELECT * FROM asset_balances QUALIFY snapshot_at = max(snapshot_at) OVER (PARTITION BY account))
     WHERE unavailable IS NOT NULL ORDER BY account, account_type;
