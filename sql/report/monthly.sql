-- report.html's charts (docs/report.md): per month in the time zone lp_time_zone and tax class, the sum of the
-- range's valued ledger rows (lp_report_rows, rows.sql) in the page's currency: the fiat's when lp_report_fiat,
-- else USDT. Doubles: a chart's bar, not an amount. Read by src/report/report.ts.
-- creates: -
-- reads: category_meaning, lp_report_rows
-- params: lp_account, lp_from, lp_report_fiat, lp_time_zone, lp_to
SELECT strftime(timezone(getvariable('lp_time_zone'), l.ts), '%Y-%m') AS month, m.tax_class, sum(CAST(CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END AS DOUBLE)) AS value
     FROM lp_report_rows AS l JOIN category_meaning AS m USING (category)
     WHERE l.ts >= getvariable('lp_from') AND l.ts < getvariable('lp_to') AND (getvariable('lp_account') IS NULL OR l.account = getvariable('lp_account'))
     GROUP BY ALL ORDER BY month;
