-- The rows of the tables of realized gains from the engine's slices and open lots (temp.lp_gain_slices and
-- temp.lp_gain_lots, sql/gains/00_slices.sql; src/gains/gains.ts; docs/gains.md), with the dates of the rules:
-- getvariable('lp_gains_time_zone') (--tz, or Europe/London for uk), the tax year's first day
-- getvariable('lp_tax_year_start') (MM-DD), the unit getvariable('lp_gains_unit') and the cost basis
-- getvariable('lp_cost_basis'). Two temporary views, read by 10_disposals.sql and 20_lots.sql (a computation from the
-- first movement) or by sql/gains-kept/ (one that goes on from a kept state).
-- creates: lp_gain_disposal_rows, lp_gain_lot_rows
-- reads: lp_gain_lots, lp_gain_slices, lp_units_to_decimal
-- params: lp_cost_basis, lp_gains_time_zone, lp_gains_unit, lp_tax_year_start
CREATE OR REPLACE TEMP VIEW lp_gain_disposal_rows AS
WITH slices AS (
  SELECT account, asset, lp_units_to_decimal(quantity_units) AS quantity,
    make_timestamptz(disposed_ms * 1000) AS disposed_at, make_timestamptz(acquired_ms * 1000) AS acquired_at,
    lp_units_to_decimal(proceeds_units) AS proceeds, lp_units_to_decimal(cost_units) AS cost, lp_units_to_decimal(fees_units) AS fees,
    match_rule, trade_group, flags
  FROM temp.lp_gain_slices
),
dated AS (
  SELECT *,
    CAST(timezone(getvariable('lp_gains_time_zone'), disposed_at) AS DATE) AS disposed_date,
    CAST(timezone(getvariable('lp_gains_time_zone'), acquired_at) AS DATE) AS acquired_date
  FROM slices
)
SELECT
  account, asset,
  CAST(quantity AS DECIMAL(38, 18)) AS quantity,
  disposed_at, acquired_at,
  CAST(date_diff('day', acquired_date, disposed_date) AS INTEGER) AS holding_days,
  CAST(proceeds AS DECIMAL(38, 18)) AS proceeds,
  CAST(cost AS DECIMAL(38, 18)) AS cost,
  CAST(fees AS DECIMAL(38, 18)) AS fees,
  CAST(proceeds AS DECIMAL(38, 18)) - CAST(cost AS DECIMAL(38, 18)) - CAST(fees AS DECIMAL(38, 18)) AS gain,
  match_rule, trade_group, flags,
  CASE
    WHEN getvariable('lp_tax_year_start') = '01-01' THEN CAST(year(disposed_date) AS VARCHAR)
    ELSE (SELECT CAST(y AS VARCHAR) || '-' || lpad(CAST((y + 1) % 100 AS VARCHAR), 2, '0')
          FROM (SELECT CASE WHEN strftime(disposed_date, '%m-%d') >= getvariable('lp_tax_year_start') THEN year(disposed_date) ELSE year(disposed_date) - 1 END AS y))
  END AS tax_year,
  CASE
    WHEN match_rule LIKE '%unmatched' THEN 'unknown'
    WHEN acquired_date IS NULL THEN NULL
    WHEN disposed_date > acquired_date + INTERVAL 1 YEAR THEN 'long'
    ELSE 'short'
  END AS term,
  CAST(getvariable('lp_gains_unit') AS VARCHAR) AS unit,
  CAST(getvariable('lp_cost_basis') AS VARCHAR) AS cost_basis,
  -- A withdrawal's slices (withdrawal_<rule>, src/gains/slices.ts) leave the lots without being disposed of: a sum
  -- over disposals that should match gains_summary and Form 8949 filters on this. Last, so that the columns before
  -- keep their places (sql/warehouse/013_plain_names.sql adds it so to an earlier release's table).
  match_rule NOT LIKE 'withdrawal\_%' ESCAPE '\' AS is_disposal
FROM dated;

CREATE OR REPLACE TEMP VIEW lp_gain_lot_rows AS
SELECT
  account, asset,
  lp_units_to_decimal(quantity_units) AS quantity,
  lp_units_to_decimal(cost_units) AS cost,
  make_timestamptz(acquired_ms * 1000) AS acquired_at,
  CAST(getvariable('lp_gains_unit') AS VARCHAR) AS unit,
  CAST(getvariable('lp_cost_basis') AS VARCHAR) AS cost_basis
FROM temp.lp_gain_lots;
