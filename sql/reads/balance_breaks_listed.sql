-- The first lp_listed balance breaks of each account, in time order, amounts as exact text (docs/completeness.md,
-- "Running balances"; src/reads/completeness.ts): the view holds them all, the summaries list these.
-- creates: -
-- reads: balance_breaks, lp_decimal_text
-- params: lp_listed
SELECT account, stream, partition, asset, source_id, epoch_ms(ts) AS ts_ms, lp_decimal_text(expected) AS expected, lp_decimal_text(reported) AS reported,
       lp_decimal_text(difference) AS difference FROM balance_breaks
     QUALIFY row_number() OVER (PARTITION BY account ORDER BY ts_ms, source_id) <= getvariable('lp_listed') ORDER BY account, ts_ms, source_id;
