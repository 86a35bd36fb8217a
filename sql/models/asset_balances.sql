-- asset_balances: the per-asset balance endpoints, one per account type (src/streams/asset-balances.ts holds the
-- columns, each with its field and cast; docs/completeness.md, "Balances"). A table the transform makes from
-- raw_records when a snapshot was taken since the last, typed by lp_type_asset_balances (sql/generated/typing.sql),
-- with `quantity` made here. A part the key could not read is one marker record {"ledgerpipeUnavailable": why}.
--
-- quantity, the amount the ledger is compared with, per account type (docs/completeness.md, "Balances", which cites
-- each):
--   spot: available + frozen + locked (the docs give them as disjoint parts; a public client adds them so).
--   futures: accountEquity - unrealizedPL: the docs say equity includes unrealized PnL, which no record holds
--     until it is realized; in every real response published, that difference is the wallet balance
--     (= available in cross margin, available + isolatedMargin with an isolated position).
--   margin: totalAmount (borrowed coins included: the ledger books a borrow as coin in).
--   earn: amount. funding: available + frozen (an empty frozen, as in the docs' example, is none).
--   bots: available + frozen for the spot bots, equity for the futures bots (no ledger explains either).
--   unified (a unified account): balance ("Coin balance"; equity may hold unrealized PnL, as a futures account's does).
-- The funding account of a unified account follows the funding rule (its docs' example: balance = available + frozen).
--   copy (a follower's copy-trading project): estValue, its value with unrealized PnL (no record explains its trading).
-- creates: asset_balances
-- reads: raw_records, lp_type_asset_balances
-- params: -
CREATE OR REPLACE TABLE asset_balances AS
WITH typed AS (
  SELECT * FROM lp_type_asset_balances('raw_records')
)
SELECT
  account, snapshot_at, account_type, asset, symbol, bot_account_type,
  CAST(CASE
    WHEN unavailable IS NOT NULL THEN NULL
    WHEN account_type = 'spot' THEN available + coalesce(frozen, 0) + coalesce(locked, 0)
    WHEN account_type LIKE '%\_futures' ESCAPE '\' THEN account_equity - unrealized_pl
    WHEN account_type LIKE 'margin\_%' ESCAPE '\' THEN total_amount
    WHEN account_type = 'earn' THEN amount
    WHEN account_type = 'funding' THEN available + coalesce(frozen, 0)
    WHEN account_type = 'bots' AND bot_account_type = 'futures' THEN equity
    WHEN account_type = 'bots' THEN available + coalesce(frozen, 0)
    WHEN account_type = 'unified' THEN balance
    WHEN account_type = 'copy' THEN est_value
  END AS DECIMAL(38, 18)) AS quantity,
  -- Then the typed columns, as they come: unavailable, each amount as served, fields, key.
  * EXCLUDE (account, snapshot_at, account_type, asset, symbol, bot_account_type)
FROM typed;
