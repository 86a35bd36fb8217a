-- Form 8949's rows of the range's disposals (src/gains/; docs/gains.md, "Form 8949"): part I (short term, held a
-- year or less) or II (long term); description "<quantity> <asset>"; dates acquired and sold as MM/DD/YYYY (UTC),
-- VARIOUS for a pool, UNKNOWN when nothing matched; proceeds (column d) and cost or other basis (column e, the
-- fees added to it) rounded to cents, and the gain (column h) their difference. No adjustment is computed
-- (columns f and g are empty). Withdrawals are not disposals and are left out. Amounts are in the unit column's
-- currency: the form wants USD, so run with --fiat USD. A temporary view of the COPYs' connection, which
-- src/export/exporter.ts copies to form8949.csv; by hand, set the variables as in koinly.sql.
-- creates: lp_export_form8949
-- reads: disposals
-- params: lp_account, lp_from, lp_to
CREATE OR REPLACE TEMP VIEW lp_export_form8949 AS
SELECT
  CASE WHEN term = 'long' THEN 'II' ELSE 'I' END AS part,
  rtrim(rtrim(CAST(quantity AS VARCHAR), '0'), '.') || ' ' || asset AS description,
  CASE
    WHEN match_rule = 'unmatched' THEN 'UNKNOWN'
    WHEN acquired_at IS NULL THEN 'VARIOUS'
    ELSE strftime(timezone('UTC', acquired_at), '%m/%d/%Y')
  END AS date_acquired,
  strftime(timezone('UTC', disposed_at), '%m/%d/%Y') AS date_sold,
  CAST(round(proceeds, 2) AS DECIMAL(38, 2)) AS proceeds,
  CAST(round(cost + fees, 2) AS DECIMAL(38, 2)) AS cost_basis,
  '' AS adjustment_code,
  '' AS adjustment_amount,
  CAST(round(proceeds, 2) AS DECIMAL(38, 2)) - CAST(round(cost + fees, 2) AS DECIMAL(38, 2)) AS gain_or_loss,
  unit,
  account,
  flags
FROM disposals
WHERE is_disposal
  AND disposed_at >= getvariable('lp_from') AND disposed_at < getvariable('lp_to')
  AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'))
-- Then by the slice's own columns, named with the table's name (proceeds and cost_basis above are the rounded
-- cells, and disposals.cost_basis is the method): rows of one instant come out in the same order in every run.
ORDER BY part, disposed_at, description, date_acquired, disposals.acquired_at NULLS LAST, disposals.proceeds,
  disposals.cost, disposals.fees, disposals.account, disposals.flags NULLS LAST;
