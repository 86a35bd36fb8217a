-- The table lots (what is open at the range's end) made anew, and the view gains_summary over disposals
-- (src/gains/gains.ts; docs/gains.md): reads temp.lp_gain_lot_rows (00_slice_rows.sql) and disposals.
-- creates: lots, gains_summary
-- reads: disposals, lp_gain_lot_rows
-- params: -
CREATE OR REPLACE TABLE lots AS
SELECT * FROM temp.lp_gain_lot_rows
ORDER BY account, asset, acquired_at NULLS FIRST;

CREATE OR REPLACE VIEW gains_summary AS
SELECT
  account, asset, tax_year, coalesce(term, 'pool') AS term, unit,
  count(*) AS disposals,
  sum(quantity) AS quantity,
  sum(proceeds) AS proceeds,
  sum(cost) AS cost,
  sum(fees) AS fees,
  sum(gain) AS gain,
  coalesce(sum(gain) FILTER (WHERE gain > 0), 0) AS gains,
  coalesce(sum(gain) FILTER (WHERE gain < 0), 0) AS losses,
  count(*) FILTER (WHERE match_rule = 'unmatched') AS unmatched
FROM disposals
WHERE is_disposal
GROUP BY ALL
ORDER BY account, asset, tax_year, term;
