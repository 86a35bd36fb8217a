-- Check: per account, asset and category, the ledger adds up to the typed tables it comes from, summed here
-- straight from those tables by type and booked by the type catalog. A row lost or doubled on the way shows up
-- as a difference.
WITH
booking AS (SELECT source, field, type, category, direction FROM type_catalog WHERE source <> 'ledgerpipe'),
unreviewed AS (SELECT (SELECT category FROM type_catalog WHERE source = 'ledgerpipe' AND type = 'unreviewed') AS category),
-- Per account, asset and type: the sum as written and the sum of absolute values, and the record's main type
-- (which decides whether a fee leg is booked). default_direction: a stream's own direction (withdrawals out,
-- deposits in) for a status the catalog lacks.
typed AS (
  SELECT account, 'margin_records' AS source, 'marginTaxType' AS field, margin_tax_type AS type, 'marginTaxType' AS main_field,
    margin_tax_type AS main_type, NULL AS default_direction, coin AS asset, sum(amount) AS written, sum(abs(amount)) AS magnitude
  FROM margin_records GROUP BY ALL
  UNION ALL
  SELECT account, 'margin_records', 'fee', '*', 'marginTaxType', margin_tax_type, NULL, coin, sum(fee), sum(abs(fee))
  FROM margin_records WHERE fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'futures_fills', 'profit', '*', 'profit', '*', NULL, margin_coin, sum(profit), sum(abs(profit))
  FROM futures_fills WHERE profit <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'futures_fills', 'feeDetail.deduction', coalesce(deduction, ''), 'feeDetail.deduction', coalesce(deduction, ''), NULL,
    fee_coin, sum(total_fee), sum(abs(total_fee))
  FROM futures_fill_fees WHERE total_fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'withdrawals', 'status', status, 'status', status, 'out', coin, sum(size), sum(abs(size)) FROM withdrawals GROUP BY ALL
  UNION ALL
  SELECT account, 'withdrawals', 'fee', '*', 'status', status, NULL, coin, sum(fee), sum(abs(fee)) FROM withdrawals WHERE fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'deposits', 'status', status, 'status', status, 'in', coin, sum(size), sum(abs(size)) FROM deposits GROUP BY ALL
  UNION ALL
  SELECT account, 'futures_tax_records', 'futureTaxType', future_tax_type, 'futureTaxType', future_tax_type, NULL, margin_coin,
    sum(amount), sum(abs(amount))
  FROM futures_tax_records GROUP BY ALL
  UNION ALL
  SELECT account, 'futures_tax_records', 'fee', '*', 'futureTaxType', future_tax_type, NULL, margin_coin, sum(fee), sum(abs(fee))
  FROM futures_tax_records WHERE fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'spot_tax_records', 'spotTaxType', spot_tax_type, 'spotTaxType', spot_tax_type, NULL, coin, sum(amount), sum(abs(amount))
  FROM spot_tax_records GROUP BY ALL
  UNION ALL
  SELECT account, 'spot_tax_records', 'fee', '*', 'spotTaxType', spot_tax_type, NULL, coin, sum(fee), sum(abs(fee))
  FROM spot_tax_records WHERE fee <> 0 GROUP BY ALL
  UNION ALL
  SELECT account, 'p2p_tax_records', 'p2pTaxType', p2p_tax_type, 'p2pTaxType', p2p_tax_type, NULL, coin,
    sum(coalesce(balance, total)), sum(abs(coalesce(balance, total)))
  FROM p2p_tax_records GROUP BY ALL
),
expected AS (
  SELECT
    t.account, t.asset, coalesce(b.category, (SELECT category FROM unreviewed)) AS category,
    sum(CASE coalesce(nullif(b.direction, 'by_name'), lp_direction_by_name(t.type), t.default_direction, 'signed')
          WHEN 'in' THEN t.magnitude WHEN 'out' THEN -t.magnitude ELSE t.written END) AS total
  FROM typed AS t
  LEFT JOIN booking AS b ON b.source = t.source AND b.field = t.field AND b.type = t.type
  LEFT JOIN booking AS mb ON mb.source = t.source AND mb.field = t.main_field AND mb.type = t.main_type
  WHERE coalesce(b.direction, '') <> 'none' AND coalesce(mb.direction, '') <> 'none'
  GROUP BY ALL
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
