-- deposits: GET /api/v2/spot/wallet/deposit-records (src/streams/deposits.ts holds its columns and their meaning).
-- Its macros are made when the warehouse opens; the view deposits is made by the transform (sql/generated/models.sql).
-- creates: lp_type_deposits, lp_legs_deposits
-- reads: lp_amount, lp_ms, lp_transfer_note, lp_transfer_reference, typed_deposits
-- params: -

-- Typed at load: one row per deposit, renamed and cast.
CREATE OR REPLACE MACRO lp_type_deposits(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","size":"VARCHAR",
      "status":"VARCHAR","toAddress":"VARCHAR","dest":"VARCHAR","chain":"VARCHAR","fromAddress":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'deposits'
)
SELECT
  account,
  partition,
  key,
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
FROM source;

-- The ledger's legs: the deposit by its status (in when the catalog lacks the status); its reference and note
-- as a withdrawal's (lp_transfer_reference, lp_transfer_note: sql/macros/00_macros.sql).
CREATE OR REPLACE MACRO lp_legs_deposits() AS TABLE
SELECT account, 'deposits' AS source, order_id AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset, size AS written, 'in' AS default_direction,
  NULL AS symbol, lp_transfer_reference(dest, trade_id, order_id) AS reference,
  lp_transfer_note(dest, chain) AS note, '' AS pair_scope, '' AS pair_key, 'spot' AS account_type
FROM typed_deposits;
