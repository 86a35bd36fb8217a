-- cointracking.csv: the ledger of [lp_from, lp_to) in CoinTracking's CSV import format (every field quoted).
-- Run by hand with SET VARIABLE lp_from / lp_to as in koinly.sql. One row per entry of tax_export_entries
-- (a withdrawal's fee in its own row, internal transfers left out); the Comment carries the ledger entry_id.
WITH rows AS (
  SELECT
    *,
    CASE
      WHEN category = 'realized_pnl' THEN CASE WHEN amount >= 0 THEN 'Derivatives / Futures Profit' ELSE 'Derivatives / Futures Loss' END
      WHEN category = 'interest' THEN 'Borrowing Fee'
      WHEN category = 'loan_borrow' THEN 'Receive Loan'
      WHEN category = 'loan_repay' THEN 'Repay Loan'
      WHEN category = 'deposit' THEN 'Deposit'
      WHEN category = 'withdrawal' THEN 'Withdrawal'
      WHEN is_fee
        THEN CASE WHEN amount < 0 THEN 'Margin Fee' ELSE 'Other Income' END
      ELSE CASE WHEN amount < 0 THEN 'Other Fee' ELSE 'Other Income' END
    END AS type
  FROM tax_export_entries
  WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
)
SELECT
  type                                                                   AS "Type",
  CASE WHEN amount > 0 THEN lp_decimal_text(amount) ELSE '' END          AS "Buy Amount",
  CASE WHEN amount > 0 THEN asset ELSE '' END                            AS "Buy Currency",
  CASE WHEN amount < 0 THEN lp_decimal_text(-amount) ELSE '' END         AS "Sell Amount",
  CASE WHEN amount < 0 THEN asset ELSE '' END                            AS "Sell Currency",
  coalesce(lp_decimal_text(fee), '')                                     AS "Fee",
  coalesce(fee_asset, '')                                                AS "Fee Currency",
  account                                                                AS "Exchange",
  source                                                                 AS "Trade-Group",
  category || ' ' || entry_id                                            AS "Comment",
  strftime(timezone('UTC', ts), '%Y-%m-%d %H:%M:%S')                     AS "Date",
  CASE WHEN source IN ('withdrawals', 'deposits') AND note LIKE 'on_chain%' THEN reference ELSE entry_id END AS "Tx-ID"
FROM rows
ORDER BY ts, entry_id;
