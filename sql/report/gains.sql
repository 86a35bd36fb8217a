-- report.html's gains (docs/gains.md, docs/report.md): the disposals of [lp_from, lp_to) (withdrawals left out)
-- of one account (lp_account) or all, per account, asset, tax year and term, as gains_summary adds them, with how
-- many slices had nothing to match. Read by src/report/report.ts.
-- creates: -
-- reads: disposals, lp_decimal_text
-- params: lp_account, lp_from, lp_to
SELECT account, asset, tax_year, coalesce(term, 'pool') AS term, any_value(unit) AS unit, any_value(cost_basis) AS cost_basis, count(*) AS disposals,
       lp_decimal_text(sum(proceeds)) AS proceeds, lp_decimal_text(sum(cost)) AS cost, lp_decimal_text(sum(fees)) AS fees, lp_decimal_text(sum(gain)) AS gain,
       count(*) FILTER (WHERE match_rule = 'unmatched') AS unmatched
     FROM disposals WHERE is_disposal AND disposed_at >= getvariable('lp_from') AND disposed_at < getvariable('lp_to') AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'))
     GROUP BY ALL ORDER BY account, asset, tax_year, term;
