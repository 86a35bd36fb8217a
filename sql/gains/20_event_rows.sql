-- The engine's movements made once, in the order it reads them (src/gains/gains.ts reads one pool and asset at a
-- time, so that memory holds one asset's movements, not the year's): up to getvariable('lp_gains_until') (the
-- range's end; NULL for all), each with its pool, getvariable('lp_gains_pool') ('all', or 'account' for its own).
CREATE OR REPLACE TEMP TABLE lp_gain_event_rows AS
SELECT
  CASE WHEN getvariable('lp_gains_pool') = 'all' THEN 'all' ELSE account END AS pool,
  account, asset, epoch_ms(ts) AS ts_ms, entry_id, kind,
  CAST(quantity AS DECIMAL(38, 18)) AS quantity, CAST(own AS DECIMAL(38, 18)) AS own, CAST(other AS DECIMAL(38, 18)) AS other,
  CAST(side_value AS DECIMAL(38, 18)) AS side_value, side_legs, CAST(group_fees AS DECIMAL(38, 18)) AS group_fees, trade_group, flags
FROM temp.lp_gain_events
WHERE getvariable('lp_gains_until') IS NULL OR ts < getvariable('lp_gains_until')
ORDER BY pool, asset, ts, entry_id;
