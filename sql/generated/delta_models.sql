-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by `npm run generate`: do not edit.
-- The typed rows of the records an incremental transform rebooks (src/transform/incremental.ts), copied into the
-- schema lp_delta under their tables' own names: with lp_delta first on DuckDB's search path, the legs of
-- sql/models/, and so the ledger and the checks, read these copies.
-- creates: typed_margin_records, typed_futures_fills, typed_withdrawals, typed_deposits, typed_futures_tax_records, typed_spot_tax_records, typed_p2p_tax_records, typed_uta_tax_records, typed_uta_financial_records, typed_copy_transfers, typed_copy_profit_shares, typed_lead_trader_profits
-- reads: rebooked, typed_copy_profit_shares, typed_copy_transfers, typed_deposits, typed_futures_fills, typed_futures_tax_records, typed_lead_trader_profits, typed_margin_records, typed_p2p_tax_records, typed_spot_tax_records, typed_uta_financial_records, typed_uta_tax_records, typed_withdrawals
-- params: -

CREATE OR REPLACE TABLE lp_delta.typed_margin_records AS
SELECT t.* FROM main.typed_margin_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'margin_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_futures_fills AS
SELECT t.* FROM main.typed_futures_fills AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'futures_fills' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_withdrawals AS
SELECT t.* FROM main.typed_withdrawals AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'withdrawals' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_deposits AS
SELECT t.* FROM main.typed_deposits AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'deposits' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_futures_tax_records AS
SELECT t.* FROM main.typed_futures_tax_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'futures_tax_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_spot_tax_records AS
SELECT t.* FROM main.typed_spot_tax_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'spot_tax_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_p2p_tax_records AS
SELECT t.* FROM main.typed_p2p_tax_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'p2p_tax_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_uta_tax_records AS
SELECT t.* FROM main.typed_uta_tax_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'uta_tax_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_uta_financial_records AS
SELECT t.* FROM main.typed_uta_financial_records AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'uta_financial_records' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_copy_transfers AS
SELECT t.* FROM main.typed_copy_transfers AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'copy_transfers' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_copy_profit_shares AS
SELECT t.* FROM main.typed_copy_profit_shares AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'copy_profit_shares' AND r.source_id = t.key;

CREATE OR REPLACE TABLE lp_delta.typed_lead_trader_profits AS
SELECT t.* FROM main.typed_lead_trader_profits AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = 'lead_trader_profits' AND r.source_id = t.key;
