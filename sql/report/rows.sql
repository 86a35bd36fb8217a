-- The valued ledger rows report.html reads (src/report/report.ts; docs/report.md): those of [lp_from, lp_to),
-- of one account (lp_account) or all, with the columns the report reads, in a temporary table made once for all its
-- reads. They are taken from the export's valued rows of its range (lp_export_ledger_valued, withRangeValued in
-- src/reads/range-valued.ts): each read of the valued ledger computes every row's value anew (docs/performance.md,
-- "Prices").
-- creates: lp_report_rows
-- reads: lp_export_ledger_valued
-- params: lp_account, lp_from, lp_to
CREATE OR REPLACE TEMP TABLE lp_report_rows AS
SELECT account, ts, category, asset, amount, value_usdt, value_fiat, source, source_id, entry_id
FROM lp_export_ledger_valued
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
  AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'));
