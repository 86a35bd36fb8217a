-- Fourth release: names users type in SQL that are not DuckDB keywords (docs/upgrading.md;
-- test/models/keywords.test.ts): `WHERE at = ...` and `WHERE from < ...` do not parse. Renamed in place, the data kept.
-- creates: -
-- reads: disposals, holding_quantities, holdings, lp_holdings_valued, reconciliation
-- params: -

-- holdings.at is as_of: the table of quantities keeps its rows (sql/completeness/30_holdings.sql makes it again at
-- the next transform, with the new name).
ALTER TABLE holding_quantities RENAME COLUMN "at" TO as_of;

-- The views that name the old columns: lp_holdings_valued reads holding_quantities."at" (DuckDB binds a view when it
-- is queried, so it and holdings over it would fail), and reconciliation names its columns "from" and "to". Dropped
-- here, made again from this release's files right after the migrations (src/warehouse/upgrade-views.ts), so that
-- `status` and `query` read the new names before the next transform.
DROP VIEW IF EXISTS holdings;
DROP VIEW IF EXISTS lp_holdings_valued;
DROP VIEW IF EXISTS reconciliation;

-- disposals.is_disposal: false for the slices of a withdrawal (match_rule withdrawal_<rule>), which leave the lots
-- without being disposed of (docs/gains.md). The table is made again by every export; one an earlier release made
-- gets the column now, set from match_rule (a USING expression may read the row's other columns). A warehouse
-- without gains has no table, and nothing happens.
ALTER TABLE IF EXISTS disposals ADD COLUMN IF NOT EXISTS is_disposal BOOLEAN;
ALTER TABLE IF EXISTS disposals ALTER COLUMN is_disposal SET DATA TYPE BOOLEAN USING (match_rule NOT LIKE 'withdrawal\_%' ESCAPE '\');
