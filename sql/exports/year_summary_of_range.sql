-- The year summary of an export's range [lp_from, lp_to) (docs/values.md), made once for its CSV and its Parquet:
-- a temporary table of the export's connection (src/export/exporter.ts), since each read of the values computes
-- every ledger row's value (docs/performance.md, "Prices"). Run by hand with the variables set as in koinly.sql.
-- creates: lp_export_valued, lp_export_year_summary
-- reads: lp_ledger_valued, lp_year_summary
-- params: lp_from, lp_to
CREATE OR REPLACE TEMP VIEW lp_export_valued AS
SELECT * FROM lp_ledger_valued
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to');

CREATE OR REPLACE TEMP TABLE lp_export_year_summary AS
SELECT * FROM lp_year_summary('lp_export_valued');
