-- reconciliation (docs/completeness.md, "Reconciliation"): per account, account type and asset, between each two
-- consecutive snapshots of that account type whose every row has its quantity, the change the snapshots show against
-- the change the ledger books in [period_start, period_end). An account type with records of its own is compared where
-- the ledger covers the span (lp_covered, sql/completeness/05_read_spans.sql); a difference is unexplained: a record
-- missing or misread. Earn and bots have no records: their change is set against the transfers in and out seen in the
-- other streams (earn: earn_transfer; bots: strategy_transfer and copy_trade_transfer), and what remains is that
-- account type's own result (interest, a bot's trading), said so and not counted as unexplained. A copy-trading account
-- (copy) is set against its own transfers and profit shares (copy_transfers, copy_profit_shares): what remains is its
-- trading.
-- creates: reconciliation
-- reads: ledger, lp_covered, lp_exact_text, lp_snapshot_quantities, lp_sum_frac, lp_sum_text, lp_sum_whole, lp_whole_snapshots
-- params: -
CREATE OR REPLACE VIEW reconciliation AS
WITH
snapshot_rows AS (
  SELECT * FROM lp_snapshot_quantities()
),
whole AS (
  SELECT * FROM lp_whole_snapshots()
),
spans AS (
  SELECT account, account_type,
    lag(snapshot_at) OVER (PARTITION BY account, account_type ORDER BY snapshot_at) AS span_from, snapshot_at AS span_to
  FROM whole
  QUALIFY span_from IS NOT NULL
),
-- Only the rows from an account's first snapshot on fall in a span: those before it are not read (a warehouse
-- without two snapshots reads none of its ledger here).
firsts AS (
  SELECT account, min(span_from) AS first_at FROM spans GROUP BY account
),
own AS (
  SELECT l.account, l.account_type, l.asset, l.ts, l.amount
  FROM ledger AS l JOIN firsts AS f ON f.account = l.account AND l.ts >= f.first_at
  WHERE l.account_type IS NOT NULL
),
boundary AS (
  SELECT l.account, CASE WHEN l.category = 'earn_transfer' THEN 'earn' ELSE 'bots' END AS account_type, l.asset, l.ts, -l.amount AS amount
  FROM ledger AS l JOIN firsts AS f ON f.account = l.account AND l.ts >= f.first_at
  WHERE l.category IN ('earn_transfer', 'strategy_transfer', 'copy_trade_transfer')
),
movements AS (
  SELECT * FROM own UNION ALL SELECT * FROM boundary
),
-- The movements summed between consecutive snapshot times of the account (an ASOF join puts each in the span it
-- falls in): the ledger is read once, not once per span and asset.
bounds AS (
  SELECT DISTINCT account, snapshot_at AS bucket FROM whole
),
buckets AS (
  SELECT m.account, m.account_type, m.asset, b.bucket, lp_sum_whole(m.amount) AS whole, lp_sum_frac(m.amount) AS frac
  FROM movements AS m ASOF JOIN bounds AS b ON b.account = m.account AND m.ts >= b.bucket
  GROUP BY ALL
),
assets AS (
  SELECT s.account, s.account_type, a.asset, s.span_from, s.span_to
  FROM spans AS s
  JOIN (
    SELECT account, account_type, asset, snapshot_at FROM snapshot_rows
    UNION SELECT account, account_type, asset, bucket FROM buckets
  ) AS a ON a.account = s.account AND a.account_type = s.account_type AND a.snapshot_at >= s.span_from AND a.snapshot_at <= s.span_to
  GROUP BY ALL
),
changes AS (
  SELECT a.*,
    -- Exact whatever the sizes; beyond DECIMAL(38,18), NULL (never wrapped).
    TRY_CAST(lp_sum_text(coalesce(t.quantity, 0), -coalesce(f.quantity, 0), 0, 0) AS DECIMAL(38, 18)) AS snapshot_change,
    TRY_CAST((SELECT lp_exact_text(coalesce(sum(k.whole), 0), coalesce(sum(k.frac), 0)) FROM buckets AS k
      WHERE k.account = a.account AND k.account_type = a.account_type AND k.asset = a.asset
        AND k.bucket >= a.span_from AND k.bucket < a.span_to) AS DECIMAL(38, 18)) AS ledger_change,
    -- A copy-trading account's records are its transfers and profit shares only: its trading is no record's
    -- (docs/unified-accounts.md, "Copy trading").
    a.account_type IN ('earn', 'bots', 'copy') AS without_records,
    lp_covered(a.account, a.account_type, a.span_from, a.span_to) AS covered
  FROM assets AS a
  LEFT JOIN snapshot_rows AS f ON f.account = a.account AND f.account_type = a.account_type AND f.asset = a.asset AND f.snapshot_at = a.span_from
  LEFT JOIN snapshot_rows AS t ON t.account = a.account AND t.account_type = a.account_type AND t.asset = a.asset AND t.snapshot_at = a.span_to
)
SELECT account, account_type, asset, span_from AS period_start, span_to AS period_end, snapshot_change,
  CASE WHEN covered OR without_records THEN ledger_change END AS ledger_change,
  CASE WHEN covered OR without_records THEN TRY_CAST(lp_sum_text(snapshot_change, -ledger_change, 0, 0) AS DECIMAL(38, 18)) END AS unexplained,
  CASE
    WHEN without_records AND snapshot_change = ledger_change THEN 'the transfers in and out explain the change'
    WHEN without_records THEN account_type || '''s own result (no records show it): not a finding'
    WHEN NOT covered THEN 'the ledger does not cover this span of ' || account_type || ': not compared (extract it to compare)'
    WHEN snapshot_change = ledger_change THEN 'the ledger explains the change'
    ELSE 'unexplained: a record missing or misread in this span (see balance_breaks and unpaired_transfers)'
  END AS explanation
FROM changes;
