-- The year summary of an export's range [lp_from, lp_to) (docs/values.md), made once for its CSV and its Parquet:
-- a temporary table of the COPYs' connection (the warehouse's: src/export/exporter.ts), summed from the range's rows
-- as the export valued them once for all its reads (ledger_valued_of_range.sql, made first:
-- src/reads/range-valued.ts). Valued again through the views, a busy year's rows in every coin took 9.8 CPU-s
-- against 1.1 (docs/performance.md, "Gains kept"). Run by hand after ledger_valued_of_range.sql, with the variables
-- set as in koinly.sql.
-- creates: lp_export_year_summary
-- reads: lp_export_ledger_valued, lp_year_summary
-- params: -
CREATE OR REPLACE TEMP TABLE lp_export_year_summary AS
SELECT * FROM lp_year_summary('lp_export_ledger_valued');
