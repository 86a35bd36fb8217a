-- The valued ledger of an export's range [lp_from, lp_to) (lp_ledger_valued_rows(),
-- sql/values/35_ledger_valued_rows.sql), made once for its CSV and its Parquet: a temporary table of the export's
-- connection (src/export/exporter.ts), in the files' order (time, entry, account), which both read as it lies. Each
-- read of the values prices every row of the range again (docs/performance.md, "Prices"). Run
-- by hand with the variables set as in koinly.sql.
-- creates: lp_export_ledger_valued
-- reads: lp_ledger_valued_rows
-- params: lp_from, lp_to
CREATE OR REPLACE TEMP TABLE lp_export_ledger_valued AS
SELECT * FROM lp_ledger_valued_rows()
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
ORDER BY ts, entry_id, account;
