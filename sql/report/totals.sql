-- report.html's headline (docs/report.md): per tax class of the tax files, its label and meaning, the total of its
-- movements in the page's currency (lp_report_fiat: the fiat's, else USDT), none when a movement has no value
-- (a partial sum is never shown as one), and how many have none. In the catalog's order. Read by src/report/report.ts.
-- creates: -
-- reads: category_meaning, lp_report_rows, lp_total, tax_classes
-- params: lp_report_fiat
SELECT t.tax_class, t.label, t.meaning, CASE WHEN count(*) FILTER (WHERE CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END IS NULL) = 0 THEN lp_total(CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END) END AS total,
       count(*) AS entries, count(*) FILTER (WHERE CASE WHEN getvariable('lp_report_fiat') THEN l.value_fiat ELSE l.value_usdt END IS NULL) AS unvalued
     FROM lp_report_rows AS l JOIN category_meaning AS m USING (category) JOIN tax_classes AS t ON t.tax_class = m.tax_class
     WHERE t.in_tax_files GROUP BY t.tax_class, t.label, t.meaning ORDER BY min(t.rowid);
