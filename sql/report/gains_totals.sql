-- The totals of report.html's gains (gains.sql): the same disposals, summed whole. Read by src/report/report.ts.
-- creates: -
-- reads: disposals, lp_decimal_text
-- params: lp_account, lp_from, lp_to
SELECT count(*) AS disposals, lp_decimal_text(sum(proceeds)) AS proceeds, lp_decimal_text(sum(cost)) AS cost, lp_decimal_text(sum(fees)) AS fees,
       lp_decimal_text(sum(gain)) AS gain FROM disposals WHERE is_disposal AND disposed_at >= getvariable('lp_from') AND disposed_at < getvariable('lp_to') AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'));
