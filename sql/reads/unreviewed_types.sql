-- The types the last transform booked as unreviewed (ledger/30_unreviewed_types.sql; docs/ledger.md, "Adding a
-- type"), of one account (lp_account) or all: for the transform's summary, `status` and the report
-- (src/transform/unreviewed.ts).
-- creates: -
-- reads: unreviewed_types
-- params: lp_account
SELECT account, source, field, type, asset, records, total FROM unreviewed_types
     WHERE getvariable('lp_account') IS NULL OR account = getvariable('lp_account') ORDER BY account, source, field, type, asset;
