-- What settleSettings may change besides the settings row (src/pipeline/settings.ts), copied before it does into
-- temporary tables of the connection: a command refused for its input puts them back (restore.sql;
-- docs/settings.md: a refused command changes none). Exact types, one statement each.
-- creates: lp_before_opening_lots, lp_before_user_catalog, lp_before_fiat_rates
-- reads: fiat_rates, opening_lots, user_catalog
-- params: -
CREATE OR REPLACE TEMP TABLE lp_before_opening_lots AS SELECT * FROM opening_lots;
CREATE OR REPLACE TEMP TABLE lp_before_user_catalog AS SELECT * FROM user_catalog;
CREATE OR REPLACE TEMP TABLE lp_before_fiat_rates AS SELECT * FROM fiat_rates;
