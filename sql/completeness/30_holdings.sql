-- Holdings (docs/completeness.md, "Holdings"): per account, account type and asset, the quantity held at the start and
-- the end of every run's range and at each snapshot. No balance endpoint answers for a past instant, so each is
-- derived, by the first of these that can be had:
--   snapshot         a readable snapshot of that account type at that instant (an asset it does not list: none);
--   rolled back      the nearest later readable snapshot less the ledger's movements of that account type in
--                    between, only where the ledger covers that span for every stream that moves the account type
--                    (lp_account_type_sources) and the snapshot gives every row's quantity;
--   running balance  spot and cross margin: the balance a record of its chain holds (sql/completeness/
--                    10_balance_breaks.sql): after the last record before the instant, or before the first
--                    after it (its balance less its movement, when it has no fee), where the ledger covers the span;
--   not known        none of these: the row is listed with no quantity, never guessed. Earn and bots have no
--                    records, so between snapshots they are not known.
-- Isolated margin sums its pairs; bots sum their spot and futures accounts.
-- creates: holding_quantities
-- reads: asset_balances, ledger, lp_balance_steps, lp_covered, lp_exact_text, lp_frac, lp_snapshot_quantities, lp_sum_frac, lp_sum_whole, lp_whole, lp_whole_snapshots, runs
-- params: lp_holding_instants

CREATE OR REPLACE TABLE holding_quantities AS
WITH
instants AS (
  SELECT DISTINCT account, as_of FROM (
    SELECT account, range_from AS as_of FROM runs WHERE account IS NOT NULL AND range_from IS NOT NULL
    UNION ALL SELECT account, range_to FROM runs WHERE account IS NOT NULL AND range_to IS NOT NULL
    UNION ALL SELECT account, snapshot_at FROM asset_balances
    -- And those an export asks for (src/reads/completeness.ts, ensureHoldingsAt): a nightly exports the year so
    -- far.
    UNION ALL SELECT a.account, u.t FROM (SELECT DISTINCT account FROM runs WHERE account IS NOT NULL) AS a,
      unnest(CAST(coalesce(getvariable('lp_holding_instants'), []) AS TIMESTAMPTZ[])) AS u(t)
  )
),
readable AS (
  SELECT DISTINCT account, account_type, snapshot_at FROM asset_balances WHERE unavailable IS NULL
),
snapshot_rows AS (
  SELECT * FROM lp_snapshot_quantities()
),
-- A snapshot whose every row has its quantity: one that can be rolled back.
whole_snapshots AS (
  SELECT * FROM lp_whole_snapshots()
),
balances AS (
  SELECT DISTINCT account, account_type, asset FROM snapshot_rows
  UNION SELECT DISTINCT account, account_type, asset FROM ledger WHERE account_type IS NOT NULL
),
grid AS MATERIALIZED (
  SELECT b.account, b.account_type, b.asset, i.as_of FROM balances AS b JOIN instants AS i USING (account)
),
from_snapshot AS (
  SELECT g.*, coalesce(r.quantity, 0) AS quantity, 'snapshot' AS source, 1 AS preference
  FROM grid AS g
  JOIN readable AS s ON s.account = g.account AND s.account_type = g.account_type AND s.snapshot_at = g.as_of
  LEFT JOIN snapshot_rows AS r ON r.account = g.account AND r.account_type = g.account_type AND r.asset = g.asset AND r.snapshot_at = g.as_of
  WHERE r.asset IS NULL OR r.quantity IS NOT NULL
),
later AS (
  SELECT g.account, g.account_type, g.asset, g.as_of, min(s.snapshot_at) AS span_to, g.as_of AS span_from
  FROM grid AS g JOIN whole_snapshots AS s ON s.account = g.account AND s.account_type = g.account_type AND s.snapshot_at > g.as_of
  GROUP BY ALL
),
later_covered AS (
  SELECT * FROM later AS l WHERE lp_covered(l.account, l.account_type, l.span_from, l.span_to)
),
-- The ledger's movements of each account type summed between consecutive instants (each row to the last instant
-- at or before it, by an ASOF join): the spans rolled back start and end on instants, so their movements are sums
-- of these buckets, and the ledger is read once, not once per span (a busy year has 2M rows).
boundaries AS (
  SELECT DISTINCT account, as_of AS bucket FROM instants
),
-- Only the account types and times some span needs: none when no later snapshot can be rolled back (a past
-- year's run), so the ledger is not read at all then.
wanted AS (
  SELECT account, account_type, min(span_from) AS lo, max(span_to) AS hi FROM later_covered GROUP BY ALL
),
buckets AS (
  SELECT l.account, l.account_type, l.asset, bd.bucket, lp_sum_whole(l.amount) AS whole, lp_sum_frac(l.amount) AS frac
  FROM ledger AS l
  JOIN wanted AS w ON w.account = l.account AND w.account_type = l.account_type AND l.ts >= w.lo AND l.ts < w.hi
  ASOF JOIN boundaries AS bd ON bd.account = l.account AND l.ts >= bd.bucket
  GROUP BY ALL
),
moved_since AS (
  SELECT c.account, c.account_type, c.asset, c.as_of, coalesce(sum(k.whole), 0) AS moved_whole, coalesce(sum(k.frac), 0) AS moved_frac
  FROM later_covered AS c
  LEFT JOIN buckets AS k ON k.account = c.account AND k.account_type = c.account_type AND k.asset = c.asset AND k.bucket >= c.span_from AND k.bucket < c.span_to
  GROUP BY ALL
),
rolled_back AS (
  -- Exact whatever the sizes; beyond DECIMAL(38,18) the quantity is not known (NULL), never wrapped.
  SELECT c.account, c.account_type, c.asset, c.as_of,
    TRY_CAST(lp_exact_text(lp_whole(coalesce(r.quantity, 0)) - m.moved_whole, lp_frac(coalesce(r.quantity, 0)) - m.moved_frac) AS DECIMAL(38, 18)) AS quantity,
    'rolled back' AS source, 2 AS preference
  FROM later_covered AS c
  JOIN moved_since AS m USING (account, account_type, asset, as_of)
  LEFT JOIN snapshot_rows AS r ON r.account = c.account AND r.account_type = c.account_type AND r.asset = c.asset AND r.snapshot_at = c.span_to
),
-- Running balances: the chains' steps, made once (the chains are windows over every record that carries a balance).
chain_steps AS MATERIALIZED (
  SELECT account, account_type, stream, partition, asset, ts, step, reported, moved, fee
  FROM lp_balance_steps()
  WHERE account_type IN ('spot', 'margin_crossed')
),
-- The last step of each chain's millisecond (the balance after all its records), and the first.
steps AS (
  SELECT * FROM chain_steps
  QUALIFY row_number() OVER (PARTITION BY account, stream, partition, asset, ts ORDER BY step DESC) = 1
),
first_steps AS (
  SELECT * FROM chain_steps
  QUALIFY row_number() OVER (PARTITION BY account, stream, partition, asset, ts ORDER BY step) = 1
),
before AS (
  SELECT g.account, g.account_type, g.asset, g.as_of, s.reported AS quantity, s.ts AS span_from, g.as_of AS span_to
  FROM grid AS g ASOF JOIN steps AS s ON s.account = g.account AND s.account_type = g.account_type AND s.asset = g.asset AND g.as_of > s.ts
),
after AS (
  SELECT g.account, g.account_type, g.asset, g.as_of, CAST(s.reported - s.moved AS DECIMAL(38, 18)) AS quantity, g.as_of AS span_from, s.ts AS span_to
  FROM grid AS g ASOF JOIN first_steps AS s ON s.account = g.account AND s.account_type = g.account_type AND s.asset = g.asset AND s.ts >= g.as_of
  WHERE coalesce(s.fee, 0) = 0
),
running AS (
  SELECT account, account_type, asset, as_of, quantity, 'running balance' AS source, 3 AS preference
  FROM before AS b WHERE lp_covered(b.account, b.account_type, b.span_from, b.span_to)
  UNION ALL
  SELECT account, account_type, asset, as_of, quantity, 'running balance', 4
  FROM after AS a WHERE lp_covered(a.account, a.account_type, a.span_from, a.span_to)
),
known AS MATERIALIZED (
  SELECT account, account_type, asset, as_of, quantity, source, preference FROM from_snapshot
  UNION ALL SELECT * FROM rolled_back
  UNION ALL SELECT account, account_type, asset, as_of, quantity, source, preference FROM running
)
SELECT g.account, g.account_type, g.asset, g.as_of,
  CAST(k.quantity AS DECIMAL(38, 18)) AS quantity,
  coalesce(k.source, 'not known') AS source
FROM grid AS g
LEFT JOIN (
  SELECT * FROM known QUALIFY row_number() OVER (PARTITION BY account, account_type, asset, as_of ORDER BY preference) = 1
) AS k USING (account, account_type, asset, as_of)
ORDER BY g.account, g.as_of, g.account_type, g.asset;
