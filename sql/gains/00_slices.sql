-- Where the engine appends what it matched (src/gains/gains.ts), as text so that amounts stay exact; read by
-- sql/gains-tables/10_disposals.sql, which types them, and dropped there.
CREATE OR REPLACE TEMP TABLE lp_gain_slices (account VARCHAR, asset VARCHAR, quantity VARCHAR, disposed_at TIMESTAMPTZ, acquired_at TIMESTAMPTZ, proceeds VARCHAR, cost VARCHAR, fees VARCHAR, match_rule VARCHAR, trade_group VARCHAR, flags VARCHAR);
CREATE OR REPLACE TEMP TABLE lp_gain_lots (account VARCHAR, asset VARCHAR, quantity VARCHAR, cost VARCHAR, acquired_at TIMESTAMPTZ);
