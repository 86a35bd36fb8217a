-- spot_tax_records: GET /api/v2/tax/spot-record, one row per record, renamed and cast.
CREATE OR REPLACE TABLE spot_tax_records AS
WITH source AS (
  SELECT
    account, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","spotTaxType":"VARCHAR","amount":"VARCHAR","fee":"VARCHAR",
      "balance":"VARCHAR","bizOrderId":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'spot_tax_records'
)
SELECT
  account,
  r.id                        AS id,
  r.coin                      AS coin,
  r.spotTaxType               AS spot_tax_type,
  lp_amount(r.amount)         AS amount,
  lp_amount(r.fee)            AS fee,
  lp_amount(r.balance)        AS balance,
  nullif(r.bizOrderId, '')    AS biz_order_id,
  ts
FROM source
ORDER BY ts, id, account;
