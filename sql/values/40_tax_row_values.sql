-- The values of each tax-file row (sql/exports/), in the valuation's fiat; NULL when a value is missing, and no
-- row without a fiat (the tax files then join nothing). Koinly's Net Worth: the value of what the row received
-- (the sum over its entries that came in), else of the entry it stands for. CoinTracking's Buy and Sell values:
-- the value of each side, the signed sum over the row's entries in that side's asset, which is what the side's
-- amount is (the received legs less a fee in that coin, the sent legs and a fee in theirs). `rows` names a
-- relation of tax-file rows: tax_export_rows, or an export's table of its range (sql/exports/tax_rows_of_range.sql);
-- `valued` one of valued ledger rows that holds their entries: lp_ledger_valued (the whole ledger), or an export's
-- of its range (a row's entries lie at its instant: sql/exports/tax_rows_of_range.sql). A row with an entry that
-- `valued` lacks gets no values (empty cells, which the tools price themselves), never a sum of part of them.
-- creates: lp_tax_row_values, tax_row_values
-- reads: lp_ledger_valued, lp_valuation_fiat
-- params: -
CREATE OR REPLACE MACRO lp_tax_row_values(rows, valued) AS TABLE
SELECT
  account, row_id,
  CASE WHEN found = listed THEN net_worth END AS net_worth,
  CASE WHEN found = listed THEN buy_value END AS buy_value,
  CASE WHEN found = listed THEN sell_value END AS sell_value,
  currency
FROM (
SELECT
  t.account, t.row_id, count(*) AS found, any_value(t.listed) AS listed,
  CASE
    WHEN count(*) FILTER (WHERE l.amount > 0) > 0 THEN
      CASE WHEN count(*) FILTER (WHERE l.amount > 0 AND l.value_fiat IS NULL) = 0 THEN sum(l.value_fiat) FILTER (WHERE l.amount > 0) END
    ELSE abs(any_value(l.value_fiat) FILTER (WHERE l.entry_id = t.row_id))
  END AS net_worth,
  CASE WHEN count(*) FILTER (WHERE l.asset = t.buy_asset AND l.value_fiat IS NULL) = 0
    THEN sum(l.value_fiat) FILTER (WHERE l.asset = t.buy_asset) END AS buy_value,
  -CASE WHEN count(*) FILTER (WHERE l.asset = t.sell_asset AND l.value_fiat IS NULL) = 0
    THEN sum(l.value_fiat) FILTER (WHERE l.asset = t.sell_asset) END AS sell_value,
  lp_valuation_fiat() AS currency
FROM (
  SELECT account, row_id, cointracking_buy_asset AS buy_asset, cointracking_sell_asset AS sell_asset,
    len(entries) AS listed, unnest(entries) AS entry_id
  FROM query_table(rows)
) AS t
JOIN query_table(valued) AS l ON l.account = t.account AND l.entry_id = t.entry_id
WHERE lp_valuation_fiat() IS NOT NULL
GROUP BY t.account, t.row_id
);

-- tax_row_values: the values of every tax-file row.
CREATE OR REPLACE VIEW tax_row_values AS
SELECT * FROM lp_tax_row_values('tax_export_rows', 'lp_ledger_valued');
