-- The movements of [lp_from, lp_to) the view plausibility lists for review (docs/review.md), of one account
-- (lp_account) or all, largest value first, amounts as exact text (src/reads/plausibility.ts): read through
-- lp_plausibility_of (sql/values/60_plausibility.sql), which values only what the range's findings are set beside,
-- over the export's valued rows of the range (lp_export_ledger_valued, withRangeValued in src/reads/range-valued.ts),
-- a table it reads several times.
-- creates: -
-- reads: lp_decimal_text, lp_export_ledger_valued, lp_plausibility_of
-- params: lp_account, lp_from, lp_to
SELECT account, asset, epoch_ms(ts) AS ms, source, source_id, finding, lp_decimal_text(amount) AS amount, lp_decimal_text(value_usdt) AS value_usdt,
         lp_decimal_text(compared_with) AS compared_with, compared_as
       FROM lp_plausibility_of('lp_export_ledger_valued', getvariable('lp_from'), getvariable('lp_to'))
       WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account')
       ORDER BY abs(value_usdt) DESC NULLS LAST, ts, source, source_id;
