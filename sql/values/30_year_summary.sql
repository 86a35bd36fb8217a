-- Year summaries (docs/values.md): per account, asset, tax class and year in the valuation's time zone
-- (lp_valuation_time_zone(), src/warehouse/values.ts): the amount, the values, how many entries, how many without a
-- price. A value total is NULL when any of its rows has no value: a partial sum is never shown as a total. Totals are
-- exact decimal text (lp_total): a year's total may pass what DECIMAL(38,18) holds. `rows` names a relation of valued
-- ledger rows: lp_ledger_valued, or a part of it (the export's range, the report's rows). value_fiat is shown as
-- value_<fiat> where users read it.
-- creates: lp_year_summary, lp_year_summary_decimal
-- reads: category_meaning, lp_total, lp_valuation_time_zone
-- params: -
CREATE OR REPLACE MACRO lp_year_summary(rows) AS TABLE
SELECT
  l.account, l.asset, m.tax_class, lp_total(l.amount) AS amount,
  CASE WHEN count(*) FILTER (WHERE l.value_usdt IS NULL) = 0 THEN lp_total(l.value_usdt) END AS value_usdt,
  CASE WHEN count(*) FILTER (WHERE l.value_fiat IS NULL) = 0 THEN lp_total(l.value_fiat) END AS value_fiat,
  CAST(year(timezone(lp_valuation_time_zone(), l.ts)) AS INTEGER) AS year,
  CAST(count(*) AS INTEGER) AS entries,
  CAST(count(*) FILTER (WHERE l.value_usdt IS NULL) AS INTEGER) AS unpriced_entries
FROM query_table(rows) AS l
JOIN category_meaning AS m USING (category)
GROUP BY l.account, l.asset, m.tax_class, year
ORDER BY l.account, year, l.asset, m.tax_class;

-- The year summary users query (the view year_summary, src/warehouse/values.ts): the totals as DECIMAL(38,18), so
-- that sum(value_eur) and comparisons work; a total past what DECIMAL(38,18) holds (beyond 10^20) is NULL there,
-- and exact in year_summary.csv and in lp_year_summary, whose totals stay exact text.
CREATE OR REPLACE MACRO lp_year_summary_decimal(rows) AS TABLE
SELECT * REPLACE (
  TRY_CAST(amount AS DECIMAL(38, 18)) AS amount,
  TRY_CAST(value_usdt AS DECIMAL(38, 18)) AS value_usdt,
  TRY_CAST(value_fiat AS DECIMAL(38, 18)) AS value_fiat)
FROM lp_year_summary(rows);
