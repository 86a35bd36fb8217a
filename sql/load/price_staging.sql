-- The prices stage's staging (src/prices/span-writer.ts; docs/values.md): temporary tables of its connection,
-- where the candles of the spans of one transaction, and the spans themselves, are appended before statements of
-- fixed text load them into price_candles and price_coverage. Times as epoch milliseconds and closes as the text
-- received: appending plain values is cheap, and lp_amount turns each close into its exact decimal once, in SQL.
-- creates: lp_stage_candles, lp_stage_price_spans
-- reads: -
-- params: -
CREATE TEMP TABLE IF NOT EXISTS lp_stage_candles (symbol VARCHAR, ts_ms BIGINT, close VARCHAR, payload VARCHAR);
-- hours: the hours the span lacks, as epoch milliseconds joined by commas ('' for none); seq: the span's order.
CREATE TEMP TABLE IF NOT EXISTS lp_stage_price_spans (symbol VARCHAR, start_ms BIGINT, end_ms BIGINT, candles INTEGER, hours VARCHAR, seq BIGINT);
