-- The ledger's totals per account, asset and category, with how many entries (the transform's summary with
-- --verbose; src/transform/stage.ts).
-- creates: -
-- reads: ledger, lp_total
-- params: -
SELECT account, asset, category, count(*) AS entries, lp_total(amount) AS amount
           FROM ledger GROUP BY ALL ORDER BY account, asset, category;
