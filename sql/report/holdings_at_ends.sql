-- report.html's holdings (docs/completeness.md, "Holdings"): those of lp_holdings_valued at the range's start
-- (lp_from) and end (lp_to), of one account (lp_account) or all, amounts as exact text. Read by
-- src/report/completeness.ts.
-- creates: -
-- reads: lp_decimal_text, lp_holdings_valued
-- params: lp_account, lp_from, lp_to
SELECT account, account_type, asset, epoch_ms(as_of) AS as_of_ms, lp_decimal_text(quantity) AS quantity, lp_decimal_text(value_usdt) AS value_usdt,
           lp_decimal_text(value_fiat) AS value_fiat, source
         FROM lp_holdings_valued
         WHERE as_of IN (getvariable('lp_from'), getvariable('lp_to')) AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'))
         ORDER BY account, as_of, account_type, asset;
