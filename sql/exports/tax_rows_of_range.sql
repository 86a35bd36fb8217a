-- The tax files' rows of an export's range [lp_from, lp_to), of one account (lp_account) or all, and their values
-- (sql/values/40_tax_row_values.sql), made once for every tax file (koinly.sql, cointracking.sql read them):
-- temporary tables of the COPYs' connection (src/export/exporter.ts). Made one after the other: in one query,
-- DuckDB made the rows twice, side by side, and a year of 300k fills ran out of the 224 MB budget
-- (docs/performance.md, "Prices"). Run by hand with the variables set as in koinly.sql.
-- The rows are those of the range's ledger rows (lp_tax_export_rows, sql/ledger/20_tax_export.sql), not every
-- trade of the history. The values are read from the range's valued rows, made once for the export (lp_export_ledger_valued,
-- src/reads/range-valued.ts): a row's entries lie at its instant, in the range (a trade's legs and fees share its
-- trade_group, whose key ends with their instant, sql/ledger/10_ledger.sql; any other row is one record's legs).
-- Joined with the whole valued ledger, the values cost every row of the history, more each year
-- (docs/performance.md, "Gains kept"); a row with an entry the range lacked would get empty values, not a part.
-- creates: lp_export_tax_rows, lp_export_tax_values
-- reads: lp_export_ledger_valued, lp_tax_export_rows, lp_tax_row_values
-- params: lp_account, lp_from, lp_to
CREATE OR REPLACE TEMP TABLE lp_export_tax_rows AS
SELECT * FROM lp_tax_export_rows(getvariable('lp_from'), getvariable('lp_to'))
WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account');

CREATE OR REPLACE TEMP TABLE lp_export_tax_values AS
SELECT * FROM lp_tax_row_values('lp_export_tax_rows', 'lp_export_ledger_valued');
