-- The valued ledger of an export's range [lp_from, lp_to) (lp_ledger_valued_rows(),
-- sql/values/35_ledger_valued_rows.sql), made once for every read of the export stage (src/reads/range-valued.ts:
-- what has no value, the findings, the ledger's valued files, the year summary, the report), in the files' order
-- (time, entry, account), which the files read as it lies. Each read of the values prices every row of the range
-- again (docs/performance.md, "Prices"). The table lies in an in-memory database attached beside the warehouse
-- (lp_export), which every connection of the process sees, so the export's second connection writes its files too
-- (runCopies in src/export/exporter.ts); the warehouse's connection reads it by the temporary view's name. Run by
-- hand with the variables set as in koinly.sql.
-- creates: lp_export_ledger_valued
-- reads: lp_ledger_valued_rows
-- params: lp_from, lp_to
ATTACH IF NOT EXISTS ':memory:' AS lp_export (READ_WRITE);

CREATE OR REPLACE TABLE lp_export.ledger_valued AS
SELECT * FROM lp_ledger_valued_rows()
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
ORDER BY ts, entry_id, account;

CREATE OR REPLACE TEMP VIEW lp_export_ledger_valued AS SELECT * FROM lp_export.ledger_valued;
