-- The futures' realized profit and loss of the page's rows (tax class realized_pnl) in the page's currency
-- (lp_report_fiat), none when a movement has no value, set beside the gains in report.html (docs/report.md).
-- Read by src/report/report.ts.
-- creates: -
-- reads: category_meaning, lp_report_rows, lp_total
-- params: lp_report_fiat
SELECT CASE WHEN count(*) FILTER (WHERE CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END IS NULL) = 0 THEN lp_total(CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END) END AS total, count(*) AS entries
     FROM lp_report_rows AS l JOIN category_meaning AS m USING (category) WHERE m.tax_class = 'realized_pnl';
