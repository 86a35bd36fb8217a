-- The valued ledger as users read it, in the view ledger_valued (src/warehouse/values.ts) and its files
-- (ledger_valued.csv and .parquet, src/export/exporter.ts; docs/files.md): every ledger row with its USDT price and
-- values, and the tax class its category has in the type catalog (category_meaning), so that one table answers
-- "what was it, and what was it worth". value_fiat is shown as value_<fiat>, and not at all without a fiat.
-- creates: lp_ledger_valued_rows
-- reads: category_meaning, lp_ledger_valued
-- params: -
CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE
SELECT v.*, m.tax_class
FROM lp_ledger_valued AS v
LEFT JOIN category_meaning AS m USING (category);
