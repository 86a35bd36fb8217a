-- The table disposals made anew from every slice of a computation from the first movement (src/gains/gains.ts;
-- docs/gains.md), in time order: reads temp.lp_gain_disposal_rows (00_slice_rows.sql). A computation that goes on
-- from a kept state replaces its rows from where it went on instead (sql/gains-kept/10_disposals_replaced.sql).
-- creates: disposals
-- reads: lp_gain_disposal_rows
-- params: -
CREATE OR REPLACE TABLE disposals AS
SELECT * FROM temp.lp_gain_disposal_rows
ORDER BY disposed_at, asset, account, acquired_at NULLS LAST;
