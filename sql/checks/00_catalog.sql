-- Check: the type catalog (sql/seeds/type_catalog.csv) is one the ledger and the tax files can follow. Each row
-- returned is a problem, named so that the catalog row can be fixed.
-- creates: -
-- reads: ledger, tax_classes, tax_tool_vocabulary, type_catalog
-- params: -
WITH rows AS (SELECT * FROM type_catalog),
categories AS (
  SELECT category,
    count(DISTINCT tax_class) AS tax_classes,
    count(DISTINCT nullif(koinly_in, '')) AS koinly_in, count(DISTINCT nullif(koinly_out, '')) AS koinly_out,
    count(DISTINCT nullif(cointracking_in, '')) AS cointracking_in, count(DISTINCT nullif(cointracking_out, '')) AS cointracking_out,
    max(cointracking_in) AS has_cointracking_in, max(cointracking_out) AS has_cointracking_out,
    bool_or(direction IN ('in', 'signed', 'by_name')) AS goes_in, bool_or(direction IN ('out', 'signed', 'by_name')) AS goes_out
  FROM rows WHERE category <> '' GROUP BY category
),
vocabulary AS (SELECT tool, side, value FROM tax_tool_vocabulary)
SELECT 'the type catalog is sound' AS check_name, problem
FROM (
  SELECT source || ' ' || field || ' ' || type || ' appears ' || count(*) || ' times' AS problem
  FROM rows GROUP BY source, field, type HAVING count(*) > 1
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || ': direction ' || coalesce(direction, '(empty)') || ' is not in, out, signed, none or by_name'
  FROM rows WHERE coalesce(direction, '') NOT IN ('in', 'out', 'signed', 'none', 'by_name')
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || ': trade_role ' || trade_role || ' is not in, out, leg, fee or empty'
  FROM rows WHERE trade_role NOT IN ('', 'in', 'out', 'leg', 'fee')
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || ': tax class ' || coalesce(r.tax_class, '(empty)') || ' is not in tax_classes.csv'
  FROM rows AS r ANTI JOIN tax_classes AS t ON t.tax_class = r.tax_class
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || CASE WHEN direction = 'none' THEN ': moves nothing, so it takes no category' ELSE ': moves money, so it needs a category' END
  FROM rows WHERE source <> 'ledgerpipe' AND (direction = 'none') <> (category = '')
  UNION ALL
  SELECT 'tax class ' || tax_class || ': in_tax_files must be yes or no'
  FROM tax_classes WHERE in_tax_files IS NULL
  UNION ALL
  -- A trade leg the pairing does not know as one would go into the tax files alone, unmarked.
  SELECT source || ' ' || field || ' ' || type || ': tax class ' || tax_class || ' needs trade_role in, out or leg'
  FROM rows WHERE source <> 'ledgerpipe' AND tax_class IN ('trade_leg', 'conversion') AND trade_role NOT IN ('in', 'out', 'leg')
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || ': tax class ' || tax_class || ' books nothing, so its direction must be none'
  FROM rows WHERE tax_class IN ('booked_elsewhere', 'not_moved') AND direction <> 'none'
  UNION ALL
  -- The ledger tells an unreviewed fill by its type missing from the catalog (sql/ledger/10_ledger.sql).
  SELECT source || ' ' || field || ' ' || type || ': a fill field cannot be booked as unreviewed; leave it out of the catalog instead'
  FROM rows WHERE source = 'futures_fills' AND category = (SELECT category FROM rows WHERE source = 'ledgerpipe' AND type = 'unreviewed')
  UNION ALL
  SELECT 'category ' || category || ' maps to more than one tax class or tool value: give its rows the same tax_class, koinly_in, koinly_out, cointracking_in and cointracking_out'
  FROM categories WHERE tax_classes > 1 OR koinly_in > 1 OR koinly_out > 1 OR cointracking_in > 1 OR cointracking_out > 1
  UNION ALL
  SELECT 'category ' || c.category || ' goes into the tax files but has no CoinTracking type for ' || CASE WHEN c.goes_in AND c.has_cointracking_in = '' THEN 'money in' ELSE 'money out' END
  FROM categories AS c JOIN rows AS r ON r.category = c.category AND r.source <> 'ledgerpipe' JOIN tax_classes AS t ON t.tax_class = r.tax_class
  WHERE t.in_tax_files AND ((c.goes_in AND c.has_cointracking_in = '') OR (c.goes_out AND c.has_cointracking_out = ''))
  GROUP BY ALL
  UNION ALL
  SELECT source || ' ' || field || ' ' || type || ': ' || tool || ' value "' || value || '" is not in tax_tool_vocabulary.csv for money ' || side
  FROM (
    SELECT source, field, type, 'koinly' AS tool, 'in' AS side, koinly_in AS value FROM rows
    UNION ALL SELECT source, field, type, 'koinly', 'out', koinly_out FROM rows
    UNION ALL SELECT source, field, type, 'cointracking', 'in', cointracking_in FROM rows
    UNION ALL SELECT source, field, type, 'cointracking', 'out', cointracking_out FROM rows
  ) AS used
  WHERE value <> '' AND NOT EXISTS (
    SELECT 1 FROM vocabulary AS v WHERE v.tool = used.tool AND v.value = used.value AND v.side IN (used.side, 'both')
  )
  UNION ALL
  SELECT 'the catalog has no ledgerpipe rule row ' || r.type
  FROM (VALUES ('unreviewed'), ('unpaired_trade_leg')) AS r(type)
  WHERE NOT EXISTS (SELECT 1 FROM rows WHERE source = 'ledgerpipe' AND field = 'rule' AND type = r.type)
  UNION ALL
  SELECT 'ledger category ' || l.category || ' is not in the catalog'
  FROM (SELECT DISTINCT category FROM ledger) AS l
  WHERE NOT EXISTS (SELECT 1 FROM rows WHERE rows.category = l.category)
);
