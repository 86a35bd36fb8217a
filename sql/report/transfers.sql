-- report.html's internal transfers (docs/completeness.md, "Internal transfers"): per asset, the net of the page's
-- internal transfers and where it comes from: paired between account types with records, with account types
-- without records (earn, bots, copy trading, locks), and unpaired (unpaired_transfers); only the assets whose net is
-- not zero or that have one unpaired. Of one account (lp_account) or all. Read by src/report/report.ts.
-- creates: -
-- reads: category_meaning, lp_decimal_text, lp_report_rows, unpaired_transfers
-- params: lp_account
SELECT l.asset,
       lp_decimal_text(sum(l.amount)) AS net,
       lp_decimal_text(coalesce(sum(l.amount) FILTER (WHERE l.category IN ('transfer_in', 'transfer_out') AND u.source_id IS NULL), 0)) AS paired,
       lp_decimal_text(coalesce(sum(l.amount) FILTER (WHERE l.category NOT IN ('transfer_in', 'transfer_out')), 0)) AS without_records,
       lp_decimal_text(coalesce(sum(l.amount) FILTER (WHERE u.source_id IS NOT NULL), 0)) AS unpaired
     FROM lp_report_rows AS l JOIN category_meaning AS m USING (category)
     LEFT JOIN unpaired_transfers AS u ON u.account = l.account AND u.stream = l.source AND u.source_id = l.source_id AND u.asset = l.asset AND u.amount = l.amount
     WHERE m.tax_class = 'internal_transfer' AND (getvariable('lp_account') IS NULL OR l.account = getvariable('lp_account'))
     GROUP BY l.asset HAVING sum(l.amount) <> 0 OR count(*) FILTER (WHERE u.source_id IS NOT NULL) > 0 ORDER BY l.asset;
