-- Check: every typed record whose type moves money (by the type catalog, or not in it) has its ledger rows, and
-- every record whose type moves nothing (a pending status, a movement another stream books) has none. A fill
-- has rows when it has a profit or a fee entry whose totalFee is not zero.
-- One anti join of the records that must have rows against the ledger: no DISTINCT over the whole ledger and no
-- hash table per stream, so the check stays fast and small at millions of rows.
-- creates: -
-- reads: ledger, lp_alone_legs, lp_paired_legs, type_catalog
-- params: -
WITH
booking AS (SELECT source, field, type, direction FROM type_catalog WHERE source <> 'ledgerpipe'),
-- Every record of the streams whose legs pair, by its main movement (lp_paired_legs, sql/models/).
typed AS (
  SELECT account, source, source_id, field, type FROM lp_paired_legs() WHERE leg = 'main'
),
classified AS (
  SELECT t.*, coalesce(b.direction, '') <> 'none' AS moves
  FROM typed AS t LEFT JOIN booking AS b ON b.source = t.source AND b.field = t.field AND b.type = t.type
),
must_have_rows AS (
  SELECT account, source, source_id FROM classified WHERE moves
  UNION ALL
  -- A record whose legs stand alone (a fill) moved money when it has a leg: a profit, or a feeDetail entry whose
  -- totalFee is not zero. One row per leg: the record is named once below.
  SELECT account, source, source_id FROM lp_alone_legs()
),
-- The words for a missing record are put together only for the rows the join leaves: the join itself
-- carries three short columns.
missing AS (
  SELECT DISTINCT m.* FROM must_have_rows AS m
  ANTI JOIN ledger AS l ON l.account = m.account AND l.source = m.source AND l.source_id = m.source_id
)
SELECT 'every record has its ledger rows' AS check_name,
  CASE source
    WHEN 'futures_fills' THEN 'fill ' || source_id || ' moved money but has no ledger row'
    WHEN 'withdrawals' THEN 'successful withdrawal ' || source_id || ' has no ledger row'
    WHEN 'deposits' THEN 'successful deposit ' || source_id || ' has no ledger row'
    -- margin_records: 'margin record', futures_tax_records: 'futures tax record', ...
    ELSE replace(replace(source, '_records', ' record'), '_', ' ') || ' ' || source_id || ' has no ledger row'
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
