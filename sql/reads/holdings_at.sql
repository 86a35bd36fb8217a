-- The holdings at the instants asked for (lp_holding_instants: each run range's ends), of one account
-- (lp_account) or all (NULL), valued where a price is known, amounts as exact text (docs/completeness.md,
-- "Holdings"; src/reads/completeness.ts).
-- creates: -
-- reads: holdings, lp_decimal_text
-- params: lp_account, lp_holding_instants
SELECT account, account_type, asset, epoch_ms(as_of) AS t, lp_decimal_text(quantity) AS quantity, lp_decimal_text(value_usdt) AS value_usdt, source
     FROM (SELECT * FROM holdings WHERE list_contains(getvariable('lp_holding_instants'), as_of))
     WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account')
     ORDER BY account, t, account_type, asset;
