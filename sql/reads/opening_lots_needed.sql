-- The lots each account held where its known history starts (opening_balances, summed per asset over its chains;
-- docs/history.md): only what it held, not what it owed. Read by src/pipeline/history.ts, which leaves out the
-- gains' unit.
-- creates: -
-- reads: lp_total, opening_balances
-- params: -
SELECT * FROM (
       SELECT account, asset, lp_total(quantity) AS quantity, epoch_ms(min(first_record_at)) AS first_at, lp_total(first_fee) AS fees
       FROM opening_balances GROUP BY account, asset)
     WHERE NOT starts_with(quantity, '-') AND quantity <> '0' ORDER BY account, asset;
