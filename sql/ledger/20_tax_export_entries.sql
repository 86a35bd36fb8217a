-- tax_export_entries: the ledger rows the tax-software files are made of (sql/exports/). A withdrawal's fee
-- row is folded into its own row (fee, fee_asset); transfers between the account's own margin and spot
-- wallets are left out, as they move nothing in or out of the account. is_fee marks the fee categories.
CREATE OR REPLACE VIEW tax_export_entries AS
WITH withdrawal_fees AS (
  SELECT account, source_id, -amount AS fee, asset AS fee_asset FROM ledger WHERE category = 'withdrawal_fee'
)
SELECT
  l.*, f.fee, f.fee_asset,
  l.category IN ('trading_fee', 'funding_fee', 'liquidation_fee', 'fee', 'trade_fee', 'futures_fee') AS is_fee
FROM ledger AS l
LEFT JOIN withdrawal_fees AS f ON l.category = 'withdrawal' AND f.account = l.account AND f.source_id = l.source_id
WHERE l.category NOT IN ('withdrawal_fee', 'transfer_in', 'transfer_out') AND l.amount <> 0;
