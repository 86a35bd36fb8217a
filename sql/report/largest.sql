-- report.html's largest movements (docs/report.md): the 20 movements of the tax files with the largest value in
-- the page's currency (lp_report_fiat: the fiat's, else USDT), then amount, times in lp_time_zone. Read by
-- src/report/report.ts. The 20 are chosen before their cells are written: written first, every row of the range
-- had its time zone looked up and its decimals written as text (2.6 s of a busy year's report, 0.35 s after).
-- creates: -
-- reads: category_meaning, lp_decimal_text, lp_report_rows, tax_classes
-- params: lp_account, lp_from, lp_report_fiat, lp_time_zone, lp_to
SELECT account, strftime(timezone(getvariable('lp_time_zone'), ts), '%Y-%m-%d %H:%M') AS time, tax_class, label, category, asset,
       lp_decimal_text(amount) AS amount, lp_decimal_text(value) AS value, source, source_id
FROM (
  SELECT l.account, l.ts, t.tax_class, t.label, l.category, l.asset, l.amount, l.entry_id, l.source, l.source_id,
         CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END AS value
  FROM lp_report_rows AS l JOIN category_meaning AS m USING (category) JOIN tax_classes AS t ON t.tax_class = m.tax_class
  WHERE l.ts >= getvariable('lp_from') AND l.ts < getvariable('lp_to') AND (getvariable('lp_account') IS NULL OR l.account = getvariable('lp_account')) AND t.in_tax_files
  ORDER BY abs(value) DESC NULLS LAST, abs(l.amount) DESC, l.entry_id LIMIT 20
)
ORDER BY abs(value) DESC NULLS LAST, abs(amount) DESC, entry_id;
