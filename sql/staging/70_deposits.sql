-- deposits: GET /api/v2/spot/wallet/deposit-records, one row per deposit, renamed and cast.
CREATE OR REPLACE TABLE deposits AS
WITH source AS (
  SELECT
    account, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","size":"VARCHAR",
      "status":"VARCHAR","toAddress":"VARCHAR","dest":"VARCHAR","chain":"VARCHAR","fromAddress":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'deposits'
)
SELECT
  account,
  r.orderId                   AS order_id,
  nullif(r.tradeId, '')       AS trade_id,
  r.coin                      AS coin,
  r.type                      AS type,
  lp_amount(r.size)           AS size,
  r.status                    AS status,
  nullif(r.toAddress, '')     AS to_address,
  r.dest                      AS dest,
  nullif(r.chain, '')         AS chain,
  nullif(r.fromAddress, '')   AS from_address,
  lp_ms(r.uTime)              AS u_time,
  ts
FROM source
ORDER BY ts, order_id, account;
