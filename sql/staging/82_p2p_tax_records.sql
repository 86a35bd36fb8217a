-- p2p_tax_records: GET /api/v2/tax/p2p-record, one row per record, renamed and cast. The live example carries
-- the amount moved in `balance` (live-notes.md): it is kept under that name here.
CREATE OR REPLACE TABLE p2p_tax_records AS
WITH source AS (
  SELECT account, ts, json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","p2pTaxType":"VARCHAR","balance":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'p2p_tax_records'
)
SELECT
  account,
  r.id                        AS id,
  r.coin                      AS coin,
  r.p2pTaxType                AS p2p_tax_type,
  lp_amount(r.balance)        AS balance,
  ts
FROM source
ORDER BY ts, id, account;
