-- koinly.csv: the ledger of [lp_from, lp_to) in Koinly's universal import format. Run by hand with
--   SET VARIABLE lp_from = TIMESTAMPTZ '2025-01-01 00:00:00+00'; SET VARIABLE lp_to = TIMESTAMPTZ '2026-01-01 00:00:00+00';
-- One row per entry of tax_export_entries (sql/ledger/20_tax_export_entries.sql: a withdrawal's fee in its
-- own row, internal transfers left out). The Description carries the
-- ledger entry_id, so every row can be traced back. Empty cells are NULL, which the CSV writes as nothing.
WITH rows AS (
  SELECT
    ts, entry_id, amount, asset, fee, fee_asset,
    CASE
      WHEN category = 'realized_pnl' THEN 'realized gain'
      WHEN category = 'interest' THEN 'loan fee'
      WHEN category = 'loan_borrow' THEN 'margin loan'
      WHEN category = 'loan_repay' THEN 'margin repayment'
      -- A fee paid; a rebate or funding received is income on the position.
      WHEN is_fee
        THEN CASE WHEN amount < 0 THEN 'margin fee' ELSE 'realized gain' END
    END AS label,
    CASE WHEN source IN ('withdrawals', 'deposits') AND note LIKE 'on_chain%' THEN reference END AS tx_hash,
    category || ' ' || entry_id AS description
  FROM tax_export_entries
  WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
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
ORDER BY ts, entry_id;
