-- p2p_tax_records: GET /api/v2/tax/p2p-record, one row per record, renamed and cast. The amount moved is in
-- `balance` in the newest docs' example and in `total` in earlier docs and SDK types (docs/platform.md):
-- both are kept under their names, and the ledger reads balance, else total.
CREATE OR REPLACE TABLE p2p_tax_records AS
WITH source AS (
  SELECT account, ts, json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","p2pTaxType":"VARCHAR","balance":"VARCHAR","total":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'p2p_tax_records'
)
SELECT
  account,
  r.id                        AS id,
  r.coin                      AS coin,
  r.p2pTaxType                AS p2p_tax_type,
  lp_amount(r.balance)        AS balance,
  lp_amount(r.total)          AS total,
  ts
FROM source
ORDER BY ts, id, account;
