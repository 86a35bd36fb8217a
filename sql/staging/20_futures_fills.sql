-- futures_fills: GET /api/v2/mix/order/fill-history, one row per fill: a view on the typed columns written with
-- each record as it was loaded (typed_futures_fills; how each column is made: sql/macros/10_typed_at_load.sql).
CREATE OR REPLACE VIEW futures_fills AS
SELECT
  account, product_type, trade_id, order_id, symbol, price, base_volume, quote_volume, side, trade_side, pos_mode,
  trade_scope, enter_point_source, profit, margin_coin, fee, fee_coin, fee_detail, ts
FROM typed_futures_fills;
