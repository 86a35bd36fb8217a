-- The account types the platform values above zero at its latest account_balances with no readable per-asset
-- snapshot within an hour of it (docs/completeness.md, "Holdings"): a futures account type is any of the
-- *_futures snapshots, margin any of margin_*. Read by src/reads/completeness.ts.
-- creates: -
-- reads: account_balances, asset_balances, lp_decimal_text
-- params: -
SELECT account, account_type, lp_decimal_text(usdt_balance) AS usdt_balance
     FROM (SELECT * FROM account_balances QUALIFY ts = max(ts) OVER (PARTITION BY account)) AS b
     WHERE b.usdt_balance > 0 AND NOT EXISTS (
       SELECT 1 FROM asset_balances AS a
       WHERE a.account = b.account AND a.unavailable IS NULL AND a.snapshot_at >= b.ts - INTERVAL 1 HOUR AND a.snapshot_at <= b.ts + INTERVAL 1 HOUR
         AND (a.account_type = b.account_type OR (b.account_type = 'futures' AND a.account_type LIKE '%\_futures' ESCAPE '\')
           OR (b.account_type = 'margin' AND a.account_type LIKE 'margin\_%' ESCAPE '\')))
     ORDER BY account, account_type;
