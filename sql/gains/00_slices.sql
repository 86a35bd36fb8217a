-- Where the engine appends what it matched (src/gains/gains.ts), its exact amounts as DECIMAL(38, 18); read by
-- sql/gains-tables/10_disposals.sql, and dropped there.
CREATE OR REPLACE TEMP TABLE lp_gain_slices (account VARCHAR, asset VARCHAR, quantity DECIMAL(38, 18), disposed_at TIMESTAMPTZ, acquired_at TIMESTAMPTZ, proceeds DECIMAL(38, 18), cost DECIMAL(38, 18), fees DECIMAL(38, 18), match_rule VARCHAR, trade_group VARCHAR, flags VARCHAR);
CREATE OR REPLACE TEMP TABLE lp_gain_lots (account VARCHAR, asset VARCHAR, quantity DECIMAL(38, 18), cost DECIMAL(38, 18), acquired_at TIMESTAMPTZ);
