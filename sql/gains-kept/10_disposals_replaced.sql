-- The rows of disposals a computation that goes on from a kept state makes again (src/gains/gains.ts; docs/gains.md,
-- "Kept, not recomputed"), replaced by its new slices (temp.lp_gain_disposal_rows, sql/gains-tables/00_slice_rows.sql):
-- those disposed of from getvariable('lp_gains_from_ms') (the instant it goes on from) on, and of a pool and asset
-- in temp.lp_gain_restarts (UK days still open then) from its from_ms on. A row of the pool and asset in
-- getvariable('lp_gains_pool') ('all': every account's; else the account's own). The rows kept that lie after the
-- first replaced one go in again with the new ones, so that the table stays in time order as a computation from
-- the first movement leaves it.
-- creates: lp_gain_disposals_later
-- reads: disposals, lp_gain_disposal_rows, lp_gain_restarts
-- params: lp_gains_from_ms, lp_gains_pool
CREATE OR REPLACE TEMP TABLE lp_gain_disposals_later AS
WITH bounded AS (
  SELECT * FROM disposals
  WHERE disposed_at >= make_timestamptz(least(getvariable('lp_gains_from_ms'), (SELECT min(from_ms) FROM temp.lp_gain_restarts)) * 1000)
)
SELECT d.* FROM bounded AS d
WHERE d.disposed_at < make_timestamptz(getvariable('lp_gains_from_ms') * 1000)
  AND NOT EXISTS (
    SELECT 1 FROM temp.lp_gain_restarts AS r
    WHERE r.asset = d.asset AND (getvariable('lp_gains_pool') = 'all' OR r.pool = d.account)
      AND d.disposed_at >= make_timestamptz(r.from_ms * 1000)
  );

DELETE FROM disposals
WHERE disposed_at >= make_timestamptz(least(getvariable('lp_gains_from_ms'), (SELECT min(from_ms) FROM temp.lp_gain_restarts)) * 1000);

INSERT INTO disposals BY NAME
SELECT * FROM (
  SELECT * FROM temp.lp_gain_disposals_later
  UNION ALL BY NAME
  SELECT * FROM temp.lp_gain_disposal_rows
)
ORDER BY disposed_at, asset, account, acquired_at NULLS LAST;

DROP TABLE temp.lp_gain_disposals_later;
