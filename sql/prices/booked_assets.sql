-- The assets the ledger will book from the typed records of one stream (lp_stream) in [lp_from, lp_to): what the
-- prices read beside the extraction price as records load, before any transform (src/transform/booked-assets.ts;
-- docs/values.md, "Where prices come from"). A leg is booked as the ledger books it (sql/ledger/10_ledger.sql):
-- unless the catalog's row of its type, or of its record's main movement, says 'none' (a pending status, a movement
-- another stream books); a fill's main movement is its leg itself. Reads lp_paired_legs() and lp_alone_legs()
-- (sql/generated/models.sql) and type_catalog (sql/seeds/), which the caller makes in a transaction it rolls back.
-- Variables: lp_stream (a stream's name), lp_from and lp_to (TIMESTAMPTZ).
-- creates: -
-- reads: lp_alone_legs, lp_paired_legs, type_catalog
-- params: lp_from, lp_stream, lp_to
WITH legs AS (
  SELECT source, ts, field, type, main_field, main_type, asset FROM lp_paired_legs()
  UNION ALL
  SELECT source, ts, field, type, main_field, main_type, asset FROM lp_alone_legs()
)
SELECT DISTINCT l.asset
FROM legs AS l
LEFT JOIN type_catalog AS b ON b.source = l.source AND b.field = l.field AND b.type = l.type
LEFT JOIN type_catalog AS mb ON mb.source = l.source AND mb.field = l.main_field AND mb.type = l.main_type
WHERE l.source = getvariable('lp_stream') AND l.ts >= getvariable('lp_from') AND l.ts < getvariable('lp_to')
  AND l.asset IS NOT NULL
  AND coalesce(b.direction, '') <> 'none' AND coalesce(mb.direction, '') <> 'none'
ORDER BY l.asset;
