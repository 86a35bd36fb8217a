-- Running balances (docs/completeness.md, "Running balances"): records that carry the balance after them form chains, one per
-- account, stream, partition and asset: a spot tax record's `balance` per coin; a margin record's `total` per coin
-- in cross margin, per pair and coin in isolated margin (whose accounts the balance endpoint lists per pair). Each
-- step from one record to the next must equal the later record's own movement: its amount and fee, signed as the
-- type catalog says (as written where the catalog books the movement from another stream, a deposit say), whichever
-- stream the ledger books it from. Records of one chain follow by time, then id.
--
-- What is settled and what is not (docs/completeness.md, "Running balances", which cites each): the docs call both fields
-- "Total accounts"; every published example, each of one record, holds the balance after its record (the margin
-- docs' transfer_in of 13333 with total 13333; the spot bill, whose field the docs call "the assets after
-- transfer"). No published example shows whether a fee is in the balance. So a step whose record has a fee is not
-- checked: the chain starts again from that record's balance.
CREATE OR REPLACE MACRO lp_chain_direction(direction, type) AS
  CASE WHEN direction IS NULL OR direction = 'by_name' THEN coalesce(lp_direction_by_name(type), 'signed')
       WHEN direction = 'none' THEN 'signed'
       ELSE direction END;

-- Every record that carries a balance, with its chain, its movement, the balance before it (the previous
-- record's) and whether its step is checked.
CREATE OR REPLACE MACRO lp_balance_steps() AS TABLE
WITH carried AS (
  SELECT account, 'spot_tax_records' AS stream, '' AS partition, coin AS asset, id AS source_id, ts,
    'spotTaxType' AS field, spot_tax_type AS type, amount, fee, balance AS reported, 'spot' AS account_type, NULL AS symbol
  FROM typed_spot_tax_records WHERE balance IS NOT NULL
  UNION ALL
  SELECT account, 'margin_records',
    CASE WHEN margin_type = 'isolated' THEN 'isolated ' || coalesce(symbol, '') ELSE margin_type END,
    coin, id, ts, 'marginTaxType', margin_tax_type, amount, fee, total, 'margin_' || margin_type,
    CASE WHEN margin_type = 'isolated' THEN symbol END
  FROM typed_margin_records WHERE total IS NOT NULL
),
signed AS (
  SELECT c.*,
    lp_directed(c.amount, lp_chain_direction(m.direction, c.type)) AS main_moved,
    coalesce(lp_directed(c.fee, lp_chain_direction(f.direction, '*')), 0) AS fee_moved
  FROM carried AS c
  LEFT JOIN type_catalog AS m ON m.source = c.stream AND m.field = c.field AND m.type = c.type
  LEFT JOIN type_catalog AS f ON f.source = c.stream AND f.field = 'fee' AND f.type = '*'
),
chained AS (
  SELECT *,
    lag(reported) OVER chain AS previous,
    row_number() OVER chain AS step
  FROM signed
  WINDOW chain AS (PARTITION BY account, stream, partition, asset ORDER BY ts, TRY_CAST(source_id AS HUGEINT), source_id)
),
-- Sums in whole and decimal parts (HUGEINT), exact whatever their size: two amounts near DECIMAL(38,18)'s
-- limit add up past it.
parts AS (
  SELECT *,
    lp_whole(main_moved) + lp_whole(fee_moved) AS mw, lp_frac(main_moved) + lp_frac(fee_moved) AS mf,
    lp_whole(previous) + lp_whole(main_moved) + lp_whole(fee_moved) AS ew,
    lp_frac(previous) + lp_frac(main_moved) + lp_frac(fee_moved) AS ef
  FROM chained
)
SELECT account, stream, partition, asset, source_id, ts, field, type, amount, fee, reported, account_type, symbol, previous, step,
  TRY_CAST(lp_exact_text(mw, mf) AS DECIMAL(38, 18)) AS moved,
  TRY_CAST(lp_exact_text(ew, ef) AS DECIMAL(38, 18)) AS expected,
  lp_exact_text(lp_whole(reported) - ew, lp_frac(reported) - ef) AS difference_text,
  previous IS NOT NULL AND coalesce(fee, 0) = 0 AS checked
FROM parts;

-- balance_breaks: one row per step that does not add up, at the first record after the break: a record missing
-- before it (or misread), its movement the difference.
-- expected and difference are NULL where they do not fit DECIMAL(38,18) (more than 20 whole digits); the break is
-- found exactly all the same.
CREATE OR REPLACE VIEW balance_breaks AS
SELECT account, stream, partition, asset, ts, source_id, expected, reported,
  TRY_CAST(difference_text AS DECIMAL(38, 18)) AS difference
FROM lp_balance_steps()
WHERE checked AND difference_text <> '0';
