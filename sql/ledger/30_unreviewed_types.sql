-- unreviewed_types: the types the type catalog lacks, per account, stream, field and asset: how many records
-- and what they add up to in the ledger. The transform summary, the run summary and status list them; adding
-- the type to sql/seeds/type_catalog.csv is the fix (docs/ledger.md, "Adding a type"). An unreviewed row's note is its
-- field, a space, and its type exactly as received.
-- creates: unreviewed_types
-- reads: ledger, lp_total, type_catalog
-- params: -
CREATE OR REPLACE VIEW unreviewed_types AS
SELECT
  account, source,
  split_part(note, ' ', 1)                  AS field,
  substr(note, strpos(note, ' ') + 1)       AS type,
  asset,
  count(DISTINCT source_id)                 AS records,
  lp_total(amount)                          AS total
FROM ledger
WHERE category = (SELECT category FROM type_catalog WHERE source = 'ledgerpipe' AND type = 'unreviewed')
GROUP BY ALL;
