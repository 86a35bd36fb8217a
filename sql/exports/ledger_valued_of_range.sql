-- The valued ledger of an export's range [lp_from, lp_to) (lp_ledger_valued_rows(),
-- sql/values/35_ledger_valued_rows.sql), made once for every read of the export stage (src/reads/range-valued.ts:
-- what has no value, the findings, the ledger's valued files, the year summary, the report): a temporary table of
-- the warehouse's connection, in the files' order (time, entry, account), which the files read as it lies. Each
-- read of the values prices every row of the range again (docs/performance.md, "Prices"). Run
-- by hand with the variables set as in koinly.sql.
-- creates: lp_export_ledger_valued
-- reads: lp_ledger_valued_rows
-- params: lp_from, lp_to
CREATE OR REPLACE TEMP TABLE lp_export_ledger_valued AS
SELECT * FROM lp_ledger_valued_rows()
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
ORDER BY ts, entry_id, account;
