-- koinly.csv: the tax rows of [lp_from, lp_to) in Koinly's universal import format (docs/tax-files.md).
-- Run by hand with
-- SET VARIABLE lp_from = TIMESTAMPTZ '2025-01-01 00:00:00+00'; SET VARIABLE lp_to = TIMESTAMPTZ '2026-01-01
-- 00:00:00+00';
--   SET VARIABLE lp_account = NULL;  -- or one account's name: its own file (<out>/accounts/<name>/)
-- then sql/exports/tax_rows_of_range.sql, which makes the range's rows (lp_export_tax_rows) and their values, then
-- this file, and COPY lp_export_koinly TO 'koinly.csv' (src/export/exporter.ts writes it so).
-- The rows, their amounts and tags come from tax_export_rows (sql/ledger/20_tax_export.sql). The Description
-- carries the ledger entries of the row and, in brackets, its account; it starts with REVIEW when a person must
-- look at it. Dates in UTC
-- ("these must be in UTC even if you live in another timezone"), the instant's microseconds as a plain TIMESTAMP
-- (its UTC wall time, as lp_time_text: no zone looked up for each row); empty cells are NULL, written as nothing.
-- The column Koinly used to call Label is Tag ("Tags used to be labels", help article 9490023). Text cells go
-- through lp_csv_text (no cell a spreadsheet would take for a formula); amounts and dates are written as they are.
-- Net Worth is the row's value in the --fiat currency (sql/values/40_tax_row_values.sql; docs/values.md):
-- empty without --fiat or without a price, and Koinly then prices the row itself.
-- creates: lp_export_koinly
-- reads: lp_csv_text, lp_decimal_text, lp_export_tax_rows, lp_export_tax_values
-- params: -
CREATE OR REPLACE TEMP VIEW lp_export_koinly AS
SELECT
  strftime(make_timestamp(epoch_us(ts)), '%Y-%m-%d %H:%M:%S') || ' UTC' AS "Date",
  lp_decimal_text(koinly_sent)                                          AS "Sent Amount",
  lp_csv_text(koinly_sent_asset)                                        AS "Sent Currency",
  lp_decimal_text(koinly_received)                                      AS "Received Amount",
  lp_csv_text(koinly_received_asset)                                    AS "Received Currency",
  lp_decimal_text(koinly_fee)                                           AS "Fee Amount",
  lp_csv_text(koinly_fee_asset)                                         AS "Fee Currency",
  lp_decimal_text(v.net_worth)                                          AS "Net Worth Amount",
  CASE WHEN v.net_worth IS NOT NULL THEN v.currency END                 AS "Net Worth Currency",
  lp_csv_text(koinly_tag)                                               AS "Tag",
  lp_csv_text(coalesce('REVIEW (' || review || '): ', '') || description || ' [' || account || ']') AS "Description",
  lp_csv_text(tx_hash)                                                  AS "TxHash"
FROM lp_export_tax_rows AS r
LEFT JOIN lp_export_tax_values AS v USING (account, row_id)
ORDER BY r.ts, r.row_id, r.account;
