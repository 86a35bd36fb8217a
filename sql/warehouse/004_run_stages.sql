-- Which stage a run is in, or failed in: extract, transform, prices or export (status shows it).
-- creates: -
-- reads: runs
-- params: -
ALTER TABLE runs ADD COLUMN IF NOT EXISTS stage VARCHAR;
