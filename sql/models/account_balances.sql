-- account_balances: GET /api/v2/account/all-account-balance, one row per account type per snapshot (src/streams/
-- account-balances.ts holds its columns, each with its field and cast). A table the transform makes from raw_records
-- when a snapshot was taken since the last, typed by lp_type_account_balances (sql/generated/typing.sql).
-- ts is the snapshot's time (the server's clock when ledgerpipe took it).
-- creates: account_balances
-- reads: raw_records, lp_type_account_balances
-- params: -
CREATE OR REPLACE TABLE account_balances AS
SELECT * FROM lp_type_account_balances('raw_records');
