-- margin_records: GET /api/v2/tax/margin-record, one row per record, renamed and cast, nothing else.
-- Each payload is parsed once into a struct (json_transform), then its fields are read.
CREATE OR REPLACE TABLE margin_records AS
WITH source AS (
  SELECT
    account, partition, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","symbol":"VARCHAR","marginTaxType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR","total":"VARCHAR","balance":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'margin_records'
),
renamed AS (
  SELECT
    account,
    partition                 AS margin_type,
    r.id                      AS id,
    r.coin                    AS coin,
    nullif(r.symbol, '')      AS symbol,
    r.marginTaxType           AS margin_tax_type,
    lp_amount(r.amount)       AS amount,
    lp_amount(r.fee)          AS fee,
    -- The docs name it total; a client built on real records reads balance (docs/platform.md).
    lp_amount(coalesce(r.total, r.balance)) AS total,
    ts
  FROM source
)
-- Stored in export order (ts, then key): exports read it as it lies, without sorting again.
SELECT * FROM renamed
ORDER BY ts, id, account;
