-- account_balances: GET /api/v2/account/all-account-balance, one row per account type per snapshot (src/streams/
-- account-balances.ts holds its columns and their meaning). A table the transform makes from raw_records when a
-- snapshot was taken since the last.
-- ts is the snapshot's time (the server's clock when ledgerpipe took it).
-- creates: account_balances
-- reads: lp_amount, raw_records
-- params: -
CREATE OR REPLACE TABLE account_balances AS
WITH source AS (
  SELECT account, ts, json_transform(payload, '{"accountType":"VARCHAR","usdtBalance":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'account_balances'
)
SELECT
  account,
  r.accountType               AS account_type,
  lp_amount(r.usdtBalance)    AS usdt_balance,
  ts
FROM source;
