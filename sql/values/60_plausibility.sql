-- plausibility: movements far outside the account's own scale, listed for review, never changed (docs/review.md).
-- A data error of that size (a field misread, a decimal point moved) would otherwise pass as a figure: each row
-- names its record and what it was set beside.
--   fee_above_1pct          a fee above 1% of its movement: a trade's fee beside the value the trade gave (USDT),
--                           a withdrawal's fee beside the quantity withdrawn;
--   income_above_holdings   interest earned above the balance of the asset that earned it, just before it (the
--                           ledger's own running total of the asset, every account type, from its first row);
--   refund_above_fees       a fee refund above the fees the account paid in the year (366 days) before it (USDT).
-- lp_plausibility_of(relation, range_from, range_to): the findings of the movements in [range_from, range_to), of
-- the valued ledger rows `relation` names (a table or a CTE, read several times: the view plausibility's CTE of
-- lp_plausibility_rows, the whole ledger's; or an export's of its range, lp_export_ledger_valued, made once for all
-- the export's reads), reading of the rest of the ledger only what they
-- are set beside: a trade's legs and a withdrawal's own row lie at its instant;
-- a balance is the sum of the rows before the range (unvalued) and the running total within it; the fees of a
-- refund's 366 days are valued from 366 days before the range's start, for the accounts with a refund in it. An
-- export reads its range's findings so: the view over the whole ledger valued every row of it (7 s of a one-day
-- export's 12 s on a year of 1M fills, docs/performance.md, "Gains kept").
-- creates: lp_plausibility_rows, lp_plausibility_valued, lp_plausibility_of, plausibility
-- reads: ledger, lp_ledger_valued_rows
-- params: -
CREATE OR REPLACE VIEW lp_plausibility_rows AS
SELECT account, entry_id, ts, asset, amount, source, source_id, trade_group, tax_class, value_usdt FROM lp_ledger_valued_rows();

-- lp_plausibility_valued(relation, range_from, range_to): the columns the findings read of the valued rows
-- `relation` names, in [range_from, range_to).
CREATE OR REPLACE MACRO lp_plausibility_valued(relation, range_from, range_to) AS TABLE
SELECT account, entry_id, ts, asset, amount, source, source_id, trade_group, tax_class, value_usdt FROM query_table(relation)
WHERE ts >= range_from AND ts < range_to;

-- The valued rows (lp_plausibility_valued) are read eight times, each read a scan filtered to its own rows (a tax
-- class, the earners' assets), not a CTE: DuckDB makes a CTE read more than once a table of every column (a CTE's
-- NOT MATERIALIZED does not survive: DuckDB 1.5 stores the macro without it). Over a busy year's valued rows:
-- 7.1 s before, 4.5 s after, the same 191 findings (docs/performance.md, "Gains kept"). So `relation` is a table,
-- or a CTE read once: lp_plausibility_rows values its rows each time it is read, and the view plausibility reads it
-- once into a CTE (11 s over the busy year, 20 s read eight times). That CTE, read eight times, is made once whether
-- or not its MATERIALIZED survives in the stored view (DuckDB makes a CTE read more than once so).
CREATE OR REPLACE MACRO lp_plausibility_of(relation, range_from, range_to) AS TABLE
WITH
trade_given AS (
  SELECT account, trade_group, sum(abs(value_usdt)) AS given_usdt, count(*) FILTER (WHERE value_usdt IS NULL) AS unvalued
  FROM lp_plausibility_valued(relation, range_from, range_to)
  WHERE trade_group IS NOT NULL AND tax_class IN ('trade_leg', 'conversion') AND amount < 0
  GROUP BY account, trade_group
),
trade_fees AS (
  SELECT f.account, f.asset, f.ts, f.source, f.source_id, 'fee_above_1pct' AS finding, f.amount, f.value_usdt,
    g.given_usdt AS compared_with, 'the value the trade gave, USDT' AS compared_as
  FROM lp_plausibility_valued(relation, range_from, range_to) AS f
  JOIN trade_given AS g USING (account, trade_group)
  WHERE f.tax_class = 'trading_fee' AND f.amount < 0 AND f.value_usdt IS NOT NULL AND g.unvalued = 0 AND g.given_usdt > 0
    AND abs(f.value_usdt) * 100 > g.given_usdt
),
withdrawal_fees AS (
  SELECT f.account, f.asset, f.ts, f.source, f.source_id, 'fee_above_1pct' AS finding, f.amount, f.value_usdt,
    abs(w.amount) AS compared_with, 'the quantity withdrawn' AS compared_as
  FROM lp_plausibility_valued(relation, range_from, range_to) AS f
  JOIN lp_plausibility_valued(relation, range_from, range_to) AS w ON w.account = f.account AND w.source = f.source AND w.source_id = f.source_id AND w.asset = f.asset
    AND w.tax_class = 'external_withdrawal'
  WHERE f.tax_class = 'withdrawal_fee' AND abs(f.amount) * 100 > abs(w.amount)
),
-- The running total only of the assets that earned interest: what their rows before the range add up to, and a
-- window over the range's own rows.
earners AS (
  SELECT DISTINCT account, asset FROM lp_plausibility_valued(relation, range_from, range_to) WHERE tax_class = 'interest_earned'
),
held_at_start AS (
  SELECT l.account, l.asset, sum(l.amount) AS held
  FROM ledger AS l SEMI JOIN earners AS e ON e.account = l.account AND e.asset = l.asset
  WHERE l.ts < range_from
  GROUP BY l.account, l.asset
),
held AS (
  SELECT v.*, coalesce(s.held, 0)
      + coalesce(sum(v.amount) OVER (PARTITION BY v.account, v.asset ORDER BY v.ts, v.entry_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS held_before
  FROM lp_plausibility_valued(relation, range_from, range_to) AS v
  SEMI JOIN earners AS e ON e.account = v.account AND e.asset = v.asset
  LEFT JOIN held_at_start AS s ON s.account = v.account AND s.asset = v.asset
),
interest AS (
  SELECT account, asset, ts, source, source_id, 'income_above_holdings' AS finding, amount, value_usdt,
    held_before AS compared_with, 'the balance of the asset just before it' AS compared_as
  FROM held
  WHERE tax_class = 'interest_earned' AND amount > 0 AND amount > held_before
),
-- The fees each account paid, summed up to each instant (every fee of that instant in): the fees of the 366 days
-- up to a refund are the sum up to it less the sum before them, found by two ASOF joins. A window over the 366
-- days instead (RANGE ... PRECEDING) summed each refund's year anew: 40 s over the 1.5M rows of a year of 1M fills
-- with fee refunds (docs/performance.md, "Gains kept"). The sums start 366 days before the range: a difference of
-- two of them is the same from any start before its days.
refund_rows AS (
  SELECT * FROM lp_plausibility_valued(relation, range_from, range_to) WHERE tax_class = 'trading_fee' AND amount > 0 AND value_usdt IS NOT NULL
),
-- Every refund of the range looks back over [range_to - 366 days, range_from) whole: its fees are one row at that
-- span's start, summed once, not a row each in the running sum (a one-day export's refunds share 365 of their
-- days). A range longer than that has no such span.
-- The range's own fees are its rows valued above; only the days before it are valued here (a busy year's fees in
-- every coin, valued twice, cost 10.7 of the findings' 31.7 CPU-s: docs/performance.md, "Gains kept").
fees_valued AS (
  SELECT account, ts, abs(value_usdt) AS paid FROM lp_plausibility_valued(relation, range_from, range_to)
  WHERE tax_class IN ('trading_fee', 'withdrawal_fee', 'other_fee') AND amount < 0 AND value_usdt IS NOT NULL
    AND account IN (SELECT account FROM refund_rows)
  UNION ALL
  SELECT account, ts, abs(value_usdt) AS paid FROM lp_ledger_valued_rows()
  WHERE ts >= range_from - INTERVAL 366 DAYS AND ts < range_from
    AND tax_class IN ('trading_fee', 'withdrawal_fee', 'other_fee') AND amount < 0 AND value_usdt IS NOT NULL
    AND account IN (SELECT account FROM refund_rows)
),
fees_paid AS (
  SELECT account, ts, sum(paid) OVER (PARTITION BY account ORDER BY ts ROWS UNBOUNDED PRECEDING) AS paid_to
  FROM (
    SELECT account, CASE WHEN ts >= range_to - INTERVAL 366 DAYS AND ts < range_from THEN range_to - INTERVAL 366 DAYS ELSE ts END AS ts,
      sum(paid) AS paid
    FROM fees_valued
    GROUP BY ALL
  )
),
refunds_beside AS (
  SELECT r.*, coalesce(upto.paid_to, 0) - coalesce(before.paid_to, 0) AS paid_before
  FROM refund_rows AS r
  ASOF LEFT JOIN fees_paid AS upto ON upto.account = r.account AND r.ts >= upto.ts
  ASOF LEFT JOIN fees_paid AS before ON before.account = r.account AND r.ts - INTERVAL 366 DAYS > before.ts
),
refunds AS (
  SELECT account, asset, ts, source, source_id, 'refund_above_fees' AS finding, amount, value_usdt,
    paid_before AS compared_with, 'the fees paid in the 366 days before it, USDT' AS compared_as
  FROM refunds_beside
  WHERE value_usdt > paid_before
)
SELECT account, asset, ts, source, source_id, finding, CAST(amount AS DECIMAL(38, 18)) AS amount, CAST(value_usdt AS DECIMAL(38, 18)) AS value_usdt,
  CAST(compared_with AS DECIMAL(38, 18)) AS compared_with, compared_as
FROM (SELECT * FROM trade_fees UNION ALL SELECT * FROM withdrawal_fees UNION ALL SELECT * FROM interest UNION ALL SELECT * FROM refunds);

CREATE OR REPLACE VIEW plausibility AS
WITH lp_plausibility_once AS MATERIALIZED (SELECT * FROM lp_plausibility_rows)
SELECT * FROM lp_plausibility_of('lp_plausibility_once', CAST('-infinity' AS TIMESTAMPTZ), CAST('infinity' AS TIMESTAMPTZ));
