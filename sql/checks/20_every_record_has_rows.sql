-- Check: every typed record whose type moves money (by the type catalog, or not in it) has its ledger rows, and
-- every record whose type moves nothing (a pending status, a movement another stream books) has none. A fill
-- has rows when it has a profit or a fee entry whose totalFee is not zero.
-- One anti join of the records that must have rows against the ledger: no DISTINCT over the whole ledger and no
-- hash table per stream, so the check stays fast and small at millions of rows.
WITH
booking AS (SELECT source, field, type, direction FROM type_catalog WHERE source <> 'ledgerpipe'),
typed AS (
  SELECT account, 'margin_records' AS source, id AS source_id, 'marginTaxType' AS field, margin_tax_type AS type FROM margin_records
  UNION ALL SELECT account, 'withdrawals', order_id, 'status', status FROM withdrawals
  UNION ALL SELECT account, 'deposits', order_id, 'status', status FROM deposits
  UNION ALL SELECT account, 'futures_tax_records', id, 'futureTaxType', future_tax_type FROM futures_tax_records
  UNION ALL SELECT account, 'spot_tax_records', id, 'spotTaxType', spot_tax_type FROM spot_tax_records
  UNION ALL SELECT account, 'p2p_tax_records', id, 'p2pTaxType', p2p_tax_type FROM p2p_tax_records
),
classified AS (
  SELECT t.*, coalesce(b.direction, '') <> 'none' AS moves
  FROM typed AS t LEFT JOIN booking AS b ON b.source = t.source AND b.field = t.field AND b.type = t.type
),
must_have_rows AS (
  SELECT account, source, source_id FROM classified WHERE moves
  UNION ALL
  -- A fill moved money when it has a profit, or a feeDetail entry whose totalFee is not zero (the entries
  -- futures_fill_fees lists and the ledger books).
  SELECT account, 'futures_fills', trade_id FROM futures_fills
  WHERE profit <> 0 OR len(list_filter(lp_fee_detail(fee_detail), e -> lp_amount(e.totalFee) <> 0)) > 0
),
-- The words for a missing record are put together only for the rows the join leaves: the join itself
-- carries three short columns.
missing AS (
  SELECT m.* FROM must_have_rows AS m
  ANTI JOIN ledger AS l ON l.account = m.account AND l.source = m.source AND l.source_id = m.source_id
)
SELECT 'every record has its ledger rows' AS check_name,
  CASE source
    WHEN 'margin_records' THEN 'margin record ' || source_id || ' has no ledger row'
    WHEN 'futures_fills' THEN 'fill ' || source_id || ' moved money but has no ledger row'
    WHEN 'withdrawals' THEN 'successful withdrawal ' || source_id || ' has no ledger row'
    WHEN 'deposits' THEN 'successful deposit ' || source_id || ' has no ledger row'
    WHEN 'futures_tax_records' THEN 'futures tax record ' || source_id || ' has no ledger row'
    WHEN 'spot_tax_records' THEN 'spot tax record ' || source_id || ' has no ledger row'
    ELSE 'p2p tax record ' || source_id || ' has no ledger row'
  END AS problem
FROM missing
UNION ALL
SELECT 'every record has its ledger rows',
  CASE c.source
    WHEN 'withdrawals' THEN 'withdrawal ' || c.source_id || ' in status ' || c.type || ' has ledger rows'
    WHEN 'deposits' THEN 'deposit ' || c.source_id || ' in status ' || c.type || ' has ledger rows'
    ELSE replace(c.source, '_', ' ') || ' ' || c.source_id || ' of type ' || c.type || ' moves nothing by the catalog but has ledger rows'
  END
FROM classified AS c
SEMI JOIN ledger AS l ON l.account = c.account AND l.source = c.source AND l.source_id = c.source_id
WHERE NOT c.moves;
