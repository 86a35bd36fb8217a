-- report.html's per-asset summary (docs/report.md): the year summary of the page's rows (lp_report_rows) with each
-- tax class's label. Read by src/report/report.ts.
-- creates: -
-- reads: lp_report_rows, lp_year_summary, tax_classes
-- params: -
SELECT s.*, t.label FROM lp_year_summary('lp_report_rows') AS s JOIN tax_classes AS t USING (tax_class) ORDER BY s.account, s.year, s.asset, s.tax_class;
