-- koinly.csv: the ledger of [lp_from, lp_to) in Koinly's universal import format. Run by hand with
--   SET VARIABLE lp_from = TIMESTAMPTZ '2025-01-01 00:00:00+00'; SET VARIABLE lp_to = TIMESTAMPTZ '2026-01-01 00:00:00+00';
-- One row per ledger entry, except a withdrawal, whose fee row goes into the Fee columns of its own row.
-- Internal transfers between the account's margin and spot wallets are left out. The Description carries the
-- ledger entry_id, so every row can be traced back. Empty cells are NULL, which the CSV writes as nothing.
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
    e.ts, e.entry_id, e.amount, e.asset,
    f.fee, f.fee_asset,
    CASE
      WHEN e.category = 'realized_pnl' THEN 'realized gain'
      WHEN e.category = 'interest' THEN 'loan fee'
      WHEN e.category = 'loan_borrow' THEN 'margin loan'
      WHEN e.category = 'loan_repay' THEN 'margin repayment'
      -- A fee paid; a rebate or funding received is income on the position.
      WHEN e.category IN ('trading_fee', 'funding_fee', 'liquidation_fee', 'fee', 'trade_fee', 'futures_fee')
        THEN CASE WHEN e.amount < 0 THEN 'margin fee' ELSE 'realized gain' END
    END AS label,
    CASE WHEN e.source IN ('withdrawals', 'deposits') AND e.note LIKE 'on_chain%' THEN e.reference END AS tx_hash,
    e.category || ' ' || e.entry_id AS description
  FROM entries AS e
  LEFT JOIN withdrawal_fees AS f ON e.category = 'withdrawal' AND f.account = e.account AND f.source_id = e.source_id
  WHERE e.category <> 'withdrawal_fee'
)
SELECT
  strftime(timezone('UTC', ts), '%Y-%m-%d %H:%M:%S') || ' UTC'            AS "Date",
  CASE WHEN amount < 0 THEN lp_decimal_text(-amount) END                 AS "Sent Amount",
  CASE WHEN amount < 0 THEN asset END                                    AS "Sent Currency",
  CASE WHEN amount > 0 THEN lp_decimal_text(amount) END                  AS "Received Amount",
  CASE WHEN amount > 0 THEN asset END                                    AS "Received Currency",
  lp_decimal_text(fee)                                                   AS "Fee Amount",
  fee_asset                                                              AS "Fee Currency",
  CAST(NULL AS VARCHAR)                                                  AS "Net Worth Amount",
  CAST(NULL AS VARCHAR)                                                  AS "Net Worth Currency",
  label                                                                  AS "Label",
  description                                                            AS "Description",
  tx_hash                                                                AS "TxHash"
FROM rows
WHERE amount <> 0
ORDER BY ts, entry_id;
