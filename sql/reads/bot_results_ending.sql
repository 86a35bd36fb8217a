-- The bots' residuals (docs/completeness.md, "Bots and copy trading: residuals") of the periods that end in
-- (lp_from, lp_to], every period when lp_from is NULL, of one account (lp_account) or all (NULL), amounts as exact
-- text (src/reads/completeness.ts).
-- creates: -
-- reads: bot_results, lp_decimal_text
-- params: lp_account, lp_from, lp_to
SELECT account, asset, epoch_ms(period_start) AS f, epoch_ms(period_end) AS t, lp_decimal_text(bot_assets_change) AS change,
       lp_decimal_text(net_strategy_transfers) AS transfers, lp_decimal_text(residual) AS residual
     FROM (SELECT * FROM bot_results WHERE getvariable('lp_from') IS NULL OR (period_end > getvariable('lp_from') AND period_end <= getvariable('lp_to')))
     WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account')
     ORDER BY account, f, asset;
