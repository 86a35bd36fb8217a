-- What the warehouse read in full, which the completeness models ask before they compare (docs/completeness.md):
-- a running balance is checked only between records of one span read, and a later snapshot is rolled back only
-- over a span every stream of its account type read.
-- creates: lp_read_spans, lp_account_mode, lp_covered
-- reads: account_modes, coverage, lp_account_type_sources
-- params: -

-- The spans each stream and partition was read in full: its done coverage windows merged into islands.
CREATE OR REPLACE MACRO lp_read_spans() AS TABLE
WITH w AS (
  SELECT account, stream, partition, window_start AS s, window_end AS e FROM coverage WHERE status = 'done'
),
ordered AS (
  SELECT *, max(e) OVER (PARTITION BY account, stream, partition ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
  FROM w
),
marked AS (
  SELECT *, sum(CASE WHEN reach IS NULL OR s > reach THEN 1 ELSE 0 END) OVER (PARTITION BY account, stream, partition ORDER BY s, e) AS island
  FROM ordered
)
SELECT account, stream, partition, min(s) AS span_start, max(e) AS span_end FROM marked GROUP BY account, stream, partition, island;

-- Whether the ledger covers [a, b) of an account type: it has streams that move it (earn and bots have none), and every
-- one of them read that span. Call it with qualified columns (l.account): DuckDB puts a macro's arguments into its body
-- as written, where an unqualified account_type would name the subquery's own column. The streams of the account's kind
-- only (lp_account_mode: a unified account reads the v3 streams, a classic one the v2).
CREATE OR REPLACE MACRO lp_account_mode(acct) AS
  coalesce((SELECT m.mode FROM account_modes AS m WHERE m.account = acct), 'classic');

CREATE OR REPLACE MACRO lp_covered(acct, atype, span_a, span_b) AS (
  EXISTS (SELECT 1 FROM lp_account_type_sources() AS s WHERE s.account_type = atype AND s.account_mode = lp_account_mode(acct)) AND (span_a >= span_b OR NOT EXISTS (
    SELECT 1 FROM lp_account_type_sources() AS src
    WHERE src.account_type = atype AND src.account_mode = lp_account_mode(acct) AND NOT EXISTS (
      SELECT 1 FROM lp_read_spans() AS r
      WHERE r.account = acct AND r.stream = src.stream AND r.partition = src.partition AND r.span_start <= span_a AND r.span_end >= span_b))));
