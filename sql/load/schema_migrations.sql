-- The files of sql/warehouse/ a warehouse has run (src/warehouse/migrations.ts; docs/upgrading.md): made
-- before the first of them runs.
-- creates: schema_migrations
-- reads: -
-- params: -
CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL);
