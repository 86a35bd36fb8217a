-- The table lots (what is open at the range's end) filled again by a computation that goes on from a kept state
-- (src/gains/gains.ts): every pool and asset's open lots are in temp.lp_gain_lot_rows
-- (sql/gains-tables/00_slice_rows.sql), as sql/gains-tables/20_lots.sql makes the table from the first movement.
-- creates: -
-- reads: lots, lp_gain_lot_rows
-- params: -
DELETE FROM lots;

INSERT INTO lots BY NAME
SELECT * FROM temp.lp_gain_lot_rows
ORDER BY account, asset, acquired_at NULLS FIRST;
