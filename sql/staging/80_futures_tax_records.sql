-- futures_tax_records: GET /api/v2/tax/future-record, one row per record (funding fees, closes,
-- liquidations, settlements), renamed and cast; product_type from the partition.
CREATE OR REPLACE TABLE futures_tax_records AS
WITH source AS (
  SELECT
    account, partition, ts,
    json_transform(payload, '{"id":"VARCHAR","symbol":"VARCHAR","marginCoin":"VARCHAR","futureTaxType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'futures_tax_records'
)
SELECT
  account,
  partition                   AS product_type,
  r.id                        AS id,
  nullif(r.symbol, '')        AS symbol,
  r.marginCoin                AS margin_coin,
  r.futureTaxType             AS future_tax_type,
  lp_amount(r.amount)         AS amount,
  lp_amount(r.fee)            AS fee,
  ts
FROM source
ORDER BY ts, id, account;
