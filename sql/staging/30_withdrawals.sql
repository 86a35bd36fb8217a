-- withdrawals: GET /api/v2/spot/wallet/withdrawal-records, one row per withdrawal, renamed and cast.
-- fee is not in the spec's field table; the live service sends it, negative (docs/platform.md, "Withdrawals and deposits").
CREATE OR REPLACE TABLE withdrawals AS
WITH source AS (
  SELECT
    account, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","clientOid":"VARCHAR",
      "type":"VARCHAR","dest":"VARCHAR","size":"VARCHAR","fee":"VARCHAR","status":"VARCHAR","fromAddress":"VARCHAR",
      "toAddress":"VARCHAR","chain":"VARCHAR","confirm":"VARCHAR","tag":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'withdrawals'
),
renamed AS (
  SELECT
    account,
    r.orderId                   AS order_id,
    nullif(r.tradeId, '')       AS trade_id,
    r.coin                      AS coin,
    nullif(r.clientOid, '')     AS client_oid,
    r.type                      AS type,
    r.dest                      AS dest,
    lp_amount(r.size)           AS size,
    lp_amount(r.fee)            AS fee,
    r.status                    AS status,
    nullif(r.fromAddress, '')   AS from_address,
    nullif(r.toAddress, '')     AS to_address,
    nullif(r.chain, '')         AS chain,
    nullif(r.confirm, '')       AS confirm,
    nullif(r.tag, '')           AS tag,
    lp_ms(r.uTime)              AS u_time,
    ts
  FROM source
)
-- Stored in export order (ts, then key): exports read it as it lies, without sorting again.
SELECT * FROM renamed
ORDER BY ts, order_id, account;
