-- The open loans of each account's latest snapshot (docs/completeness.md, "Open loans"), of one account
-- (lp_account) or all (NULL), amounts as exact text; a snapshot without a loan has a row with no order
-- (src/reads/completeness.ts leaves it out).
-- creates: -
-- reads: loans, lp_decimal_text
-- params: lp_account
SELECT account, epoch_ms(as_of) AS at_ms, order_id, coin, lp_decimal_text(amount) AS amount, lp_decimal_text(interest) AS interest, collateral_coin,
       lp_decimal_text(collateral_amount) AS collateral_amount
     FROM (SELECT * FROM loans QUALIFY as_of = max(as_of) OVER (PARTITION BY account))
     WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account')
     ORDER BY account, order_id;
