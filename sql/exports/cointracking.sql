-- cointracking.csv: the ledger of [lp_from, lp_to) in CoinTracking's CSV import format (every field quoted).
-- Run by hand with SET VARIABLE lp_from / lp_to as in koinly.sql. A withdrawal's fee row goes into its Fee
-- columns; internal transfers between the account's margin and spot wallets are left out; the Comment
-- carries the ledger entry_id.
WITH entries AS (
  SELECT * FROM ledger
  WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
    AND category NOT IN ('transfer_in', 'transfer_out')
),
withdrawal_fees AS (
  SELECT account, source_id, -amount AS fee, asset AS fee_asset FROM entries WHERE category = 'withdrawal_fee'
),
rows AS (
  SELECT
    e.*,
    f.fee, f.fee_asset,
    CASE
      WHEN e.category = 'realized_pnl' THEN CASE WHEN e.amount >= 0 THEN 'Derivatives / Futures Profit' ELSE 'Derivatives / Futures Loss' END
      WHEN e.category = 'interest' THEN 'Borrowing Fee'
      WHEN e.category = 'loan_borrow' THEN 'Receive Loan'
      WHEN e.category = 'loan_repay' THEN 'Repay Loan'
      WHEN e.category = 'deposit' THEN 'Deposit'
      WHEN e.category = 'withdrawal' THEN 'Withdrawal'
      WHEN e.category IN ('trading_fee', 'funding_fee', 'liquidation_fee', 'fee', 'trade_fee', 'futures_fee')
        THEN CASE WHEN e.amount < 0 THEN 'Margin Fee' ELSE 'Other Income' END
      ELSE CASE WHEN e.amount < 0 THEN 'Other Fee' ELSE 'Other Income' END
    END AS type
  FROM entries AS e
  LEFT JOIN withdrawal_fees AS f ON e.category = 'withdrawal' AND f.account = e.account AND f.source_id = e.source_id
  WHERE e.category <> 'withdrawal_fee'
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
WHERE amount <> 0
ORDER BY ts, entry_id;
