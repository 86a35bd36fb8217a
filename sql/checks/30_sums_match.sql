-- Check: per account, asset and category, the ledger adds up to the typed tables it comes from, summed here
-- straight from those tables. A row lost or doubled on the way shows up as a difference.
WITH expected AS (
  SELECT m.account, m.coin AS asset, coalesce(t.category, 'unknown') AS category,
         sum(CASE WHEN t.direction IS NULL THEN m.amount WHEN t.direction > 0 THEN abs(m.amount) ELSE -abs(m.amount) END) AS total
  FROM margin_records AS m LEFT JOIN margin_tax_types AS t USING (margin_tax_type) GROUP BY ALL
  UNION ALL
  SELECT account, coin, 'fee', -sum(abs(fee)) FROM margin_records WHERE fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, margin_coin, 'realized_pnl', sum(profit) FROM futures_fills WHERE profit <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, fee_coin, 'trading_fee', sum(total_fee) FROM futures_fill_fees WHERE total_fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, coin, 'withdrawal', -sum(abs(size)) FROM withdrawals WHERE status = 'success' GROUP BY ALL
  UNION ALL
  SELECT account, coin, 'withdrawal_fee', -sum(abs(fee)) FROM withdrawals WHERE status = 'success' AND fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, coin, 'deposit', sum(abs(size)) FROM deposits WHERE status = 'success' GROUP BY ALL
  UNION ALL
  SELECT account, margin_coin, CASE WHEN lower(future_tax_type) LIKE '%funding%' THEN 'funding_fee' ELSE 'futures_' || future_tax_type END,
         sum(amount) FROM futures_tax_records WHERE lp_futures_tax_booked(future_tax_type) GROUP BY ALL
  UNION ALL
  SELECT account, margin_coin, 'futures_fee', sum(fee) FROM futures_tax_records WHERE fee <> 0 AND lp_futures_tax_booked(future_tax_type) GROUP BY ALL
  UNION ALL
  SELECT account, coin, spot_tax_type, sum(amount) FROM spot_tax_records WHERE lp_spot_tax_booked(spot_tax_type) GROUP BY ALL
  UNION ALL
  SELECT account, coin, 'spot_fee', sum(fee) FROM spot_tax_records WHERE fee <> 0 AND lp_spot_tax_booked(spot_tax_type) GROUP BY ALL
  UNION ALL
  SELECT account, coin, p2p_tax_type, sum(balance) FROM p2p_tax_records GROUP BY ALL
),
booked AS (
  SELECT account, asset, category, sum(amount) AS total FROM ledger GROUP BY ALL
)
SELECT 'ledger sums equal the typed tables' AS check_name,
       coalesce(e.account, b.account) || ' ' || coalesce(e.asset, b.asset) || ' ' || coalesce(e.category, b.category)
         || ': typed ' || coalesce(CAST(e.total AS VARCHAR), 'nothing') || ', ledger ' || coalesce(CAST(b.total AS VARCHAR), 'nothing') AS problem
FROM expected AS e
FULL OUTER JOIN booked AS b ON e.account = b.account AND e.asset = b.asset AND e.category = b.category
WHERE e.total IS DISTINCT FROM b.total;
