-- The raw writer's staging (src/load/raw-writer.ts; docs/extraction.md): temporary tables of
-- its connection, where each batch of pages is appended before one statement of each kind loads it into
-- raw_records, typed_<stream> and coverage, in the batch's transaction.
-- creates: lp_stage_raw, lp_stage_raw_last, lp_stage_coverage
-- reads: -
-- params: -
CREATE TEMP TABLE IF NOT EXISTS lp_stage_raw (
  account VARCHAR, stream VARCHAR, partition VARCHAR, key VARCHAR, ts TIMESTAMPTZ, payload VARCHAR, fetched_at TIMESTAMPTZ, seq BIGINT);

-- The batch's records as they are loaded: each once, as last seen.
CREATE TEMP VIEW IF NOT EXISTS lp_stage_raw_last AS
SELECT * FROM lp_stage_raw QUALIFY row_number() OVER (PARTITION BY account, stream, partition, key ORDER BY seq DESC) = 1;

CREATE TEMP TABLE IF NOT EXISTS lp_stage_coverage (
  account VARCHAR, stream VARCHAR, partition VARCHAR, window_start TIMESTAMPTZ, window_end TIMESTAMPTZ, status VARCHAR,
  cursor VARCHAR, rows BIGINT, tie INTEGER, run_id VARCHAR, updated_at TIMESTAMPTZ, seq BIGINT);
