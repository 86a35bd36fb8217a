-- Check: every typed record has its ledger rows, unless it has a documented reason to have none:
-- a fill with no profit and no fee moved nothing; a withdrawal or deposit that did not succeed moved nothing;
-- a futures or spot tax record of a movement another stream books (lp_futures_tax_booked, lp_spot_tax_booked).
-- One anti join of the records that must have rows against the ledger: no DISTINCT over the whole ledger and
-- no hash table per stream, so the check stays fast and small at millions of rows.
WITH must_have_rows AS (
  SELECT account, 'margin_records' AS source, id AS source_id FROM margin_records
  UNION ALL
  -- A fill moved money when it has a profit, or a feeDetail entry whose totalFee is not zero (the entries
  -- futures_fill_fees lists and the ledger books).
  SELECT account, 'futures_fills', trade_id FROM futures_fills
  WHERE profit <> 0 OR len(list_filter(lp_fee_detail(fee_detail), e -> lp_amount(e.totalFee) <> 0)) > 0
  UNION ALL
  SELECT account, 'withdrawals', order_id FROM withdrawals WHERE status = 'success'
  UNION ALL
  SELECT account, 'deposits', order_id FROM deposits WHERE status = 'success'
  UNION ALL
  SELECT account, 'futures_tax_records', id FROM futures_tax_records WHERE lp_futures_tax_booked(future_tax_type)
  UNION ALL
  SELECT account, 'spot_tax_records', id FROM spot_tax_records WHERE lp_spot_tax_booked(spot_tax_type)
  UNION ALL
  SELECT account, 'p2p_tax_records', id FROM p2p_tax_records
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
SELECT 'every record has its ledger rows', 'withdrawal ' || w.order_id || ' in status ' || w.status || ' has ledger rows'
FROM withdrawals AS w
SEMI JOIN ledger AS l ON l.account = w.account AND l.source = 'withdrawals' AND l.source_id = w.order_id
WHERE w.status <> 'success';
