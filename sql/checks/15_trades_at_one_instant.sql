-- Check: the entries of a trade lie at one instant. Its legs and fees share their trade_group, which the ledger makes
-- per millisecond (sql/ledger/10_ledger.sql), and the tax files' rows of a range are made from that range's ledger
-- rows alone, which holds each trade whole only so (lp_tax_export_rows, sql/ledger/20_tax_export.sql). Each row
-- returned is a problem.
-- creates: -
-- reads: ledger
-- params: -
SELECT 'a trade lies at one instant' AS check_name,
       'trade ' || trade_group || ' of account ' || account || ' has entries from ' || min(ts) || ' to ' || max(ts) AS problem
FROM ledger
WHERE trade_group IS NOT NULL
GROUP BY account, trade_group
HAVING min(ts) <> max(ts);
