-- The engine's temporary tables and views of one computation (sql/gains/, 00_slice_rows.sql) dropped once the
-- tables of realized gains are made from them, or once nothing was found to do (src/gains/gains.ts).
-- creates: -
-- reads: lp_gain_disposal_rows, lp_gain_event_rows, lp_gain_lot_rows, lp_gain_lots, lp_gain_restarts, lp_gain_slices
-- params: -
DROP VIEW IF EXISTS temp.lp_gain_disposal_rows;
DROP VIEW IF EXISTS temp.lp_gain_lot_rows;
DROP TABLE IF EXISTS temp.lp_gain_slices;
DROP TABLE IF EXISTS temp.lp_gain_event_rows;
DROP TABLE IF EXISTS temp.lp_gain_lots;
DROP TABLE IF EXISTS temp.lp_gain_restarts;
