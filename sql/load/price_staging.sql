-- The prices stage's staging (src/prices/extract-prices.ts; docs/values.md): a temporary table of its
-- connection, where each span's candles are appended before one statement loads them into price_candles, in the
-- span's transaction. Times as epoch milliseconds and closes as the text received: appending plain values is
-- cheap, and lp_amount turns each close into its exact decimal once, in SQL.
CREATE TEMP TABLE IF NOT EXISTS lp_stage_candles (ts_ms BIGINT, close VARCHAR, payload VARCHAR);
