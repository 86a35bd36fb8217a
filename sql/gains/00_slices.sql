-- Where the engine appends what it matched (src/gains/gains.ts), read by sql/gains-tables/ and sql/gains-kept/, and
-- dropped there. Amounts are exact: each is its DECIMAL(38, 18) value times 10^18, as HUGEINT (*_units), and times
-- are epoch milliseconds (*_ms). The engine appends plain integers, not DuckDB decimal and timestamp values: over
-- the 832k slices of a busy year, making those values took 17 s of the appends' 20 s (docs/gains.md, "Speed and
-- memory"). lp_units_to_decimal (sql/macros/00_macros.sql) turns units back into the DECIMAL(38, 18) they were.
-- creates: lp_gain_slices, lp_gain_lots, lp_gain_restarts
-- reads: -
-- params: -
CREATE OR REPLACE TEMP TABLE lp_gain_slices (account VARCHAR, asset VARCHAR, quantity_units HUGEINT, disposed_ms BIGINT, acquired_ms BIGINT, proceeds_units HUGEINT, cost_units HUGEINT, fees_units HUGEINT, match_rule VARCHAR, trade_group VARCHAR, flags VARCHAR);
CREATE OR REPLACE TEMP TABLE lp_gain_lots (account VARCHAR, asset VARCHAR, quantity_units HUGEINT, cost_units HUGEINT, acquired_ms BIGINT);
-- The pools and assets whose UK days still open at the instant the computation goes on from began before it: their
-- disposals from the first of those days (from_ms) are made again too (sql/gains-kept/10_disposals_replaced.sql).
CREATE OR REPLACE TEMP TABLE lp_gain_restarts (pool VARCHAR, asset VARCHAR, from_ms BIGINT);
