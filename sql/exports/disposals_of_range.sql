-- The disposals of an export's range [lp_from, lp_to) (src/gains/; docs/gains.md), of one account (lp_account)
-- or all: a temporary view of the COPYs' connection (the warehouse's), which src/export/exporter.ts copies to
-- disposals.csv and .parquet, each with its cells and in its order (the CSV's sorts by its cells' text). Run by
-- hand with the variables set as in koinly.sql.
-- creates: lp_export_disposals
-- reads: disposals
-- params: lp_account, lp_from, lp_to
CREATE OR REPLACE TEMP VIEW lp_export_disposals AS
SELECT * FROM disposals
WHERE disposed_at >= getvariable('lp_from') AND disposed_at < getvariable('lp_to')
  AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'));
