-- cointracking.csv: the tax rows of [lp_from, lp_to) in CoinTracking's CSV import format (every field quoted;
-- docs/tax-files.md). Run by hand as koinly.sql is, after sql/exports/tax_rows_of_range.sql, then
-- COPY lp_export_cointracking TO 'cointracking.csv' (FORCE_QUOTE *).
-- The rows, amounts and types come from tax_export_rows (sql/ledger/20_tax_export.sql): Buy and Sell include
-- the fees, the Fee column is informational ("Entering fees"). The Comment carries the ledger entries of the
-- row and the chain transaction of an on-chain deposit or withdrawal, and starts with REVIEW when a person must
-- look at it. Exchange is the account, Trade-Group the stream. Tx-ID is the account and the row's first entry:
-- unique in the file and the same on every export, so a re-import does not duplicate a row, and no two rows
-- (a deposit and a withdrawal of one chain transaction, two accounts) are taken for one. Text cells go through
-- lp_csv_text (no cell a spreadsheet would take for a formula); amounts and dates are written as they are, dates
-- in UTC from the instant's microseconds as a plain TIMESTAMP (its UTC wall time, as lp_time_text).
-- The two value columns are each side's value in the --fiat currency, which must be the CoinTracking account's
-- currency (sql/values/40_tax_row_values.sql; docs/values.md): empty without --fiat or without a price,
-- and CoinTracking then prices the row itself.
-- creates: lp_export_cointracking
-- reads: lp_csv_text, lp_decimal_text, lp_export_tax_rows, lp_export_tax_values
-- params: -
CREATE OR REPLACE TEMP VIEW lp_export_cointracking AS
SELECT
  lp_csv_text(cointracking_type)                                         AS "Type",
  coalesce(lp_decimal_text(cointracking_buy), '')                        AS "Buy Amount",
  coalesce(lp_csv_text(cointracking_buy_asset), '')                      AS "Buy Currency",
  coalesce(lp_decimal_text(cointracking_sell), '')                       AS "Sell Amount",
  coalesce(lp_csv_text(cointracking_sell_asset), '')                     AS "Sell Currency",
  coalesce(lp_decimal_text(cointracking_fee), '')                        AS "Fee",
  coalesce(lp_csv_text(cointracking_fee_asset), '')                      AS "Fee Currency",
  lp_csv_text(account)                                                   AS "Exchange",
  lp_csv_text(source)                                                    AS "Trade-Group",
  lp_csv_text(coalesce('REVIEW (' || review || '): ', '') || description || coalesce(' tx ' || tx_hash, '')) AS "Comment",
  strftime(make_timestamp(epoch_us(ts)), '%Y-%m-%d %H:%M:%S')            AS "Date",
  lp_csv_text(account || ':' || row_id)                                  AS "Tx-ID",
  coalesce(lp_decimal_text(v.buy_value), '')                             AS "Buy Value in your Account Currency",
  coalesce(lp_decimal_text(v.sell_value), '')                            AS "Sell Value in your Account Currency"
FROM lp_export_tax_rows AS r
LEFT JOIN lp_export_tax_values AS v USING (account, row_id)
ORDER BY r.ts, r.row_id, r.account;
