-- Check: per account, asset and category, the ledger adds up to the legs of the models it comes from (sql/models/),
-- summed here straight from the legs by type and booked by the type catalog, apart from the ledger's trades and joins.
-- A row lost or doubled on the way shows up as a difference. Totals are summed as whole and decimal parts
-- (lp_sum_whole, lp_sum_frac, lp_exact_text in sql/macros/00_macros.sql) and compared as exact text: two amounts at the
-- platform's limit add up past DECIMAL(38,18).
-- creates: -
-- reads: ledger, lp_alone_legs, lp_direction_by_name, lp_exact_text, lp_paired_legs, lp_sum_frac, lp_sum_whole, lp_total, type_catalog
-- params: -
WITH
booking AS (SELECT source, field, type, category, direction FROM type_catalog WHERE source <> 'ledgerpipe'),
unreviewed AS (SELECT (SELECT category FROM type_catalog WHERE source = 'ledgerpipe' AND type = 'unreviewed') AS category),
-- Every amount with its type and its record's main type (which decides whether a fee leg is booked), as the
-- legs of sql/models/ give them. default_direction: a stream's own direction (withdrawals out, deposits in) for a
-- status the catalog lacks.
typed AS (
  SELECT account, source, field, type, main_field, main_type, default_direction, asset, written AS amount FROM lp_paired_legs()
  UNION ALL
  SELECT account, source, field, type, main_field, main_type, default_direction, asset, written FROM lp_alone_legs()
),
-- Per account, asset and type: the sum as written and the sum of absolute values, each in whole and decimal parts.
grouped AS (
  SELECT account, source, field, type, main_field, main_type, default_direction, asset,
    lp_sum_whole(amount) AS written_whole, lp_sum_frac(amount) AS written_frac,
    lp_sum_whole(abs(amount)) AS magnitude_whole, lp_sum_frac(abs(amount)) AS magnitude_frac
  FROM typed GROUP BY ALL
),
directed AS (
  SELECT t.*, coalesce(b.category, (SELECT category FROM unreviewed)) AS category,
    coalesce(nullif(b.direction, 'by_name'), lp_direction_by_name(t.type), t.default_direction, 'signed') AS direction
  FROM grouped AS t
  LEFT JOIN booking AS b ON b.source = t.source AND b.field = t.field AND b.type = t.type
  LEFT JOIN booking AS mb ON mb.source = t.source AND mb.field = t.main_field AND mb.type = t.main_type
  WHERE coalesce(b.direction, '') <> 'none' AND coalesce(mb.direction, '') <> 'none'
),
expected AS (
  SELECT account, asset, category,
    lp_exact_text(
      sum(CASE direction WHEN 'in' THEN magnitude_whole WHEN 'out' THEN -magnitude_whole ELSE written_whole END),
      sum(CASE direction WHEN 'in' THEN magnitude_frac WHEN 'out' THEN -magnitude_frac ELSE written_frac END)) AS total
  FROM directed GROUP BY ALL
),
booked AS (
  SELECT account, asset, category, lp_total(amount) AS total FROM ledger GROUP BY ALL
)
SELECT 'ledger sums equal the typed tables' AS check_name,
       coalesce(e.account, b.account) || ' ' || coalesce(e.asset, b.asset) || ' ' || coalesce(e.category, b.category)
         || ': typed ' || coalesce(e.total, 'nothing') || ', ledger ' || coalesce(b.total, 'nothing') AS problem
FROM expected AS e
FULL OUTER JOIN booked AS b ON e.account = b.account AND e.asset = b.asset AND e.category = b.category
WHERE e.total IS DISTINCT FROM b.total;
