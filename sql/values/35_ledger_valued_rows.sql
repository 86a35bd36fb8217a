-- The valued ledger as its files write it (ledger_valued.csv and .parquet, src/export/exporter.ts; docs/files.md):
-- every ledger row with its USDT price and values, and the tax class its category has
-- in the type catalog (category_meaning), so that one file answers "what was it, and what was it worth".
-- value_fiat is written as value_<fiat>, and not at all without a fiat, as in ledger_valued.
CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE
SELECT v.*, m.tax_class
FROM lp_ledger_valued AS v
LEFT JOIN category_meaning AS m USING (category);
