-- Running balances (docs/completeness.md, "Running balances"): records that carry the balance after them form chains,
-- one per account, stream, partition and asset: a spot tax record's `balance` per coin; a margin record's `total` per
-- coin in cross margin, per pair and coin in isolated margin (whose accounts the balance endpoint lists per pair). Each
-- step from one record to the next must equal the later record's own movement: its amount and fee, signed as the type
-- catalog says (as written where the catalog books the movement from another stream, a deposit say), whichever stream
-- the ledger books it from. Records of one chain follow by time, then id.
--
-- What is settled and what is not (docs/completeness.md, "Running balances", which cites each): the docs call both
-- fields "Total accounts"; every published example, each of one record, holds the balance after its record (the margin
-- docs' transfer_in of 13333 with total 13333; the spot bill, whose field the docs call "the assets after transfer").
-- No published example shows whether a fee is in the balance. So a step whose record has a fee is not checked: the
-- chain starts again from that record's balance. Nor is a step across a span no run read in full. A step that adds up
-- only with its record's movement reversed is a sign mismatch (view sign_mismatches), not a break. a + b + c + d as
-- exact text, whatever their size (each within DECIMAL(38,18)).
-- creates: lp_sum_text, lp_chain_direction, lp_balance_steps, balance_breaks, sign_mismatches
-- reads: lp_directed, lp_direction_by_name, lp_exact_text, lp_frac, lp_read_spans, lp_whole, type_catalog, typed_margin_records, typed_spot_tax_records, typed_uta_financial_records, typed_uta_tax_records
-- params: -
CREATE OR REPLACE MACRO lp_sum_text(a, b, c, d) AS
  lp_exact_text(lp_whole(a) + lp_whole(b) + lp_whole(c) + lp_whole(d), lp_frac(a) + lp_frac(b) + lp_frac(c) + lp_frac(d));

CREATE OR REPLACE MACRO lp_chain_direction(direction, type) AS
  CASE WHEN direction IS NULL OR direction = 'by_name' THEN coalesce(lp_direction_by_name(type), 'signed')
       WHEN direction = 'none' THEN 'signed'
       ELSE direction END;

-- Every record that carries a balance, with its chain, its movement, the balance before it (the previous
-- record's) and whether its step is checked.
CREATE OR REPLACE MACRO lp_balance_steps() AS TABLE
WITH carried AS (
  SELECT account, 'spot_tax_records' AS stream, '' AS partition, '' AS chain, coin AS asset, id AS source_id, ts,
    'spotTaxType' AS field, spot_tax_type AS type, amount, fee, balance AS reported, 'spot' AS account_type, NULL AS symbol,
    '' AS read_partition
  FROM typed_spot_tax_records WHERE balance IS NOT NULL
  UNION ALL
  SELECT account, 'margin_records',
    CASE WHEN margin_type = 'isolated' THEN 'isolated ' || coalesce(symbol, '') ELSE margin_type END,
    CASE WHEN margin_type = 'isolated' THEN 'isolated ' || coalesce(symbol, '') ELSE margin_type END,
    coin, id, ts, 'marginTaxType', margin_tax_type, amount, fee, total, 'margin_' || margin_type,
    CASE WHEN margin_type = 'isolated' THEN symbol END, margin_type
  FROM typed_margin_records WHERE total IS NOT NULL
  UNION ALL
  -- A unified account's records (docs/unified-accounts.md, "Running balances"): every bizType's records of a coin in
  -- one chain, whose steps are checked only between two records of one bizType. The docs' example shows a chain
  -- within one bizType that adds up; none shows whether a bizType's balance is the coin's whole unified balance or
  -- that bizType's own, and a step between records of one bizType adjacent in the coin's chain is right either way.
  SELECT account, 'uta_tax_records', biz_type, '', coin, id, ts, 'type', type, amount, fee, balance, 'unified', NULL, biz_type
  FROM typed_uta_tax_records WHERE balance IS NOT NULL
  UNION ALL
  -- The financial records: the unified account's categories one chain as above, the funding account's another.
  SELECT account, 'uta_financial_records', category, CASE WHEN category = 'funding' THEN 'funding' ELSE '' END, coin, id, ts,
    CASE WHEN category = 'funding' THEN 'groupType' ELSE 'type' END, CASE WHEN category = 'funding' THEN group_type ELSE type END,
    amount, fee, balance, CASE WHEN category = 'funding' THEN 'funding' ELSE 'unified' END, NULL, category
  FROM typed_uta_financial_records WHERE balance IS NOT NULL
),
-- The span read in full that holds each record (lp_read_spans, sql/completeness/05_read_spans.sql): two records of a
-- chain are next to each other only inside one such span; across a span not read, records are missing by design.
read AS (
  SELECT c.*, r.span_start AS island
  FROM carried AS c
  LEFT JOIN lp_read_spans() AS r
    ON r.account = c.account AND r.stream = c.stream AND r.partition = c.read_partition AND c.ts >= r.span_start AND c.ts < r.span_end
),
signed AS (
  SELECT c.*,
    lp_directed(c.amount, lp_chain_direction(m.direction, c.type)) AS main_moved,
    coalesce(lp_directed(c.fee, lp_chain_direction(f.direction, '*')), 0) AS fee_moved
  FROM read AS c
  LEFT JOIN type_catalog AS m ON m.source = c.stream AND m.field = c.field AND m.type = c.type
  LEFT JOIN type_catalog AS f ON f.source = c.stream AND f.field = 'fee' AND f.type = '*'
),
chained AS (
  SELECT *,
    lag(reported) OVER chain AS previous,
    lag(island) OVER chain AS previous_island,
    lag(partition) OVER chain AS previous_partition,
    row_number() OVER chain AS step
  FROM signed
  WINDOW chain AS (PARTITION BY account, stream, chain, asset ORDER BY ts, TRY_CAST(source_id AS HUGEINT), source_id)
),
parts AS (
  SELECT *,
    coalesce(abs(previous), 0) < 1e19 AND abs(main_moved) < 1e19 AND abs(fee_moved) < 1e19 AND abs(reported) < 1e19 AS small
  FROM chained
)
-- Plain decimal arithmetic where nothing can pass DECIMAL(38,18)'s limit; beyond, sums of whole and decimal parts
-- (HUGEINT) as exact text (lp_sum_text), found exactly whatever their size: two amounts near the limit add up past
-- it. The text is slow (4 s over the 400k steps of a busy year): only those rows take it.
SELECT account, stream, partition, asset, source_id, ts, field, type, amount, fee, reported, account_type, symbol, previous, step,
  CASE WHEN small THEN CAST(main_moved + fee_moved AS DECIMAL(38, 18)) ELSE TRY_CAST(lp_sum_text(main_moved, fee_moved, 0, 0) AS DECIMAL(38, 18)) END AS moved,
  CASE WHEN small THEN CAST(previous + main_moved + fee_moved AS DECIMAL(38, 18)) ELSE TRY_CAST(lp_sum_text(previous, main_moved, fee_moved, 0) AS DECIMAL(38, 18)) END AS expected,
  CASE WHEN small THEN CAST(reported - previous - main_moved - fee_moved AS DECIMAL(38, 18)) ELSE TRY_CAST(lp_sum_text(reported, -previous, -main_moved, -fee_moved) AS DECIMAL(38, 18)) END AS difference,
  CASE WHEN small THEN reported <> previous + main_moved + fee_moved ELSE lp_sum_text(reported, -previous, -main_moved, -fee_moved) <> '0' END AS broken,
  -- The step adds up only with the record's movement the other way round: the type's booked sign (the catalog's
  -- direction applied) disagrees with the balance (sign_mismatches below).
  main_moved <> 0 AND
    CASE WHEN small THEN reported = previous - main_moved - fee_moved ELSE lp_sum_text(reported, -previous, main_moved, fee_moved) = '0' END AS reversed,
  previous IS NOT NULL AND coalesce(fee, 0) = 0 AND island IS NOT NULL AND island = previous_island AND partition = previous_partition AS checked
FROM parts;

-- balance_breaks: one row per step that does not add up, at the first record after the break: a record missing
-- before it (or misread), its movement the difference.
-- expected and difference are NULL where they do not fit DECIMAL(38,18) (more than 20 whole digits); the break is
-- found exactly all the same.
-- A step that adds up with its record's movement reversed is not a break but a sign mismatch (sign_mismatches).
CREATE OR REPLACE VIEW balance_breaks AS
SELECT account, stream, partition, asset, ts, source_id, expected, reported, difference
FROM lp_balance_steps()
WHERE checked AND broken AND NOT reversed;

-- sign_mismatches: one row per checked step that adds up only with the opposite sign: the record's type is booked
-- (the catalog's direction applied to its amount: in +abs, out -abs, signed as written) one way, and the balance
-- it carries moved the other way by the same amount. Nothing is missing; the type's label, or the catalog's
-- reading of it, is backwards (docs/completeness.md, "Signs checked against balances").
CREATE OR REPLACE VIEW sign_mismatches AS
SELECT account, stream, partition, asset, ts, source_id, field, type, amount, moved AS booked,
  TRY_CAST(lp_sum_text(reported, -previous, 0, 0) AS DECIMAL(38, 18)) AS step, previous, reported
FROM lp_balance_steps()
WHERE checked AND broken AND reversed;
