-- opening_balances: what each running-balance chain (sql/completeness/10_balance_breaks.sql) says was held before
-- its first record: that record's balance less its own movement (amount and fee, signed as the type catalog says).
-- An account read back to its opening has none: it opened empty. One the platform does not answer that far back
-- (coverage.earliest_reachable) has its holdings there, whose lots no record read explains: the lines
-- `--opening-lots` takes are made from them (docs/history.md, "Opening lots"). A first record with a fee is listed
-- with it: no published example settles whether a balance holds its record's fee (docs/completeness.md).
-- creates: opening_balances
-- reads: lp_balance_steps
-- params: -
CREATE OR REPLACE VIEW opening_balances AS
SELECT account, stream, partition, asset, account_type, ts AS first_record_at, source_id AS first_source_id,
  CAST(reported - moved AS DECIMAL(38, 18)) AS quantity,
  CAST(coalesce(fee, 0) AS DECIMAL(38, 18)) AS first_fee
FROM lp_balance_steps()
WHERE step = 1 AND moved IS NOT NULL AND reported - moved <> 0;
