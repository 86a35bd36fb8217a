-- Check: every typed record has its ledger rows, unless it has a documented reason to have none:
-- a fill with no profit and no fee moved nothing; a withdrawal or deposit that did not succeed moved nothing;
-- a futures or spot tax record of a movement another stream books (lp_futures_tax_booked, lp_spot_tax_booked).
WITH sources AS (
  SELECT DISTINCT account, source, source_id FROM ledger
),
fills_that_moved AS (
  SELECT account, trade_id FROM futures_fills WHERE profit <> 0
  UNION
  SELECT account, trade_id FROM futures_fill_fees WHERE total_fee <> 0
)
SELECT 'every record has its ledger rows' AS check_name, 'margin record ' || m.id || ' has no ledger row' AS problem
FROM margin_records AS m
ANTI JOIN sources AS s ON s.account = m.account AND s.source = 'margin_records' AND s.source_id = m.id
UNION ALL
SELECT 'every record has its ledger rows', 'fill ' || f.trade_id || ' moved money but has no ledger row'
FROM fills_that_moved AS f
ANTI JOIN sources AS s ON s.account = f.account AND s.source = 'futures_fills' AND s.source_id = f.trade_id
UNION ALL
SELECT 'every record has its ledger rows', 'successful withdrawal ' || w.order_id || ' has no ledger row'
FROM withdrawals AS w
ANTI JOIN sources AS s ON s.account = w.account AND s.source = 'withdrawals' AND s.source_id = w.order_id
WHERE w.status = 'success'
UNION ALL
SELECT 'every record has its ledger rows', 'successful deposit ' || d.order_id || ' has no ledger row'
FROM deposits AS d
ANTI JOIN sources AS s ON s.account = d.account AND s.source = 'deposits' AND s.source_id = d.order_id
WHERE d.status = 'success'
UNION ALL
SELECT 'every record has its ledger rows', 'futures tax record ' || f.id || ' has no ledger row'
FROM futures_tax_records AS f
ANTI JOIN sources AS s ON s.account = f.account AND s.source = 'futures_tax_records' AND s.source_id = f.id
WHERE lp_futures_tax_booked(f.future_tax_type)
UNION ALL
SELECT 'every record has its ledger rows', 'spot tax record ' || t.id || ' has no ledger row'
FROM spot_tax_records AS t
ANTI JOIN sources AS s ON s.account = t.account AND s.source = 'spot_tax_records' AND s.source_id = t.id
WHERE lp_spot_tax_booked(t.spot_tax_type)
UNION ALL
SELECT 'every record has its ledger rows', 'p2p tax record ' || t.id || ' has no ledger row'
FROM p2p_tax_records AS t
ANTI JOIN sources AS s ON s.account = t.account AND s.source = 'p2p_tax_records' AND s.source_id = t.id
UNION ALL
SELECT 'every record has its ledger rows', 'withdrawal ' || w.order_id || ' in status ' || w.status || ' has ledger rows'
FROM withdrawals AS w
SEMI JOIN sources AS s ON s.account = w.account AND s.source = 'withdrawals' AND s.source_id = w.order_id
WHERE w.status <> 'success';
