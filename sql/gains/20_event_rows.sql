-- The engine's movements made once, in the order it reads them (src/gains/gains.ts reads them a page at a time,
-- by rowid, so that memory holds a page, not an asset's history): those lp_gain_events reads (its range), each with
-- its pool, getvariable('lp_gains_pool') ('all', or 'account' for its own), in the order of pool, asset, time, entry
-- and account. Made with the insertion order kept (src/gains/gains.ts sets it), so that the rowids follow that order:
-- a window numbering the rows instead took 2.4 s over the 1.2M movements of a year of 1M fills, the sort 1.6 s.
-- creates: lp_gain_event_rows
-- reads: lp_gain_events
-- params: lp_gains_pool
CREATE OR REPLACE TEMP TABLE lp_gain_event_rows AS
SELECT
  CASE WHEN getvariable('lp_gains_pool') = 'all' THEN 'all' ELSE account END AS pool,
  account, asset, epoch_ms(ts) AS ts_ms, entry_id, kind,
  CAST(quantity AS DECIMAL(38, 18)) AS quantity, CAST(own AS DECIMAL(38, 18)) AS own, CAST(other AS DECIMAL(38, 18)) AS other,
  CAST(side_value AS DECIMAL(38, 18)) AS side_value, side_legs, CAST(group_fees AS DECIMAL(38, 18)) AS group_fees, trade_group, flags
FROM temp.lp_gain_events
ORDER BY pool, asset, ts_ms, entry_id, account;
