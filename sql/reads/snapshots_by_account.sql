-- Per account, the whole balance snapshots taken and the pairs of consecutive ones of an account type
-- (docs/completeness.md, "Reconciliation"): lp_whole_snapshots() holds each account type's snapshot once, so its
-- pairs are its snapshots less one. Read by src/reads/completeness.ts.
-- creates: -
-- reads: lp_whole_snapshots
-- params: -
SELECT account, count(DISTINCT snapshot_at) AS taken, count(*) - count(DISTINCT account_type) AS pairs
     FROM lp_whole_snapshots() GROUP BY account ORDER BY account;
