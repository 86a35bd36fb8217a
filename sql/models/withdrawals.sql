-- withdrawals: GET /api/v2/spot/wallet/withdrawal-records (src/streams/withdrawals.ts holds its columns and their
-- meaning). Created when the warehouse opens; the view withdrawals is made by the transform (sql/generated/models.sql).
-- creates: lp_type_withdrawals, lp_legs_withdrawals
-- reads: lp_amount, lp_ms, lp_transfer_note, lp_transfer_reference, typed_withdrawals
-- params: -

-- Typed at load: one row per withdrawal, renamed and cast. A changed status replaces the row, as it replaces the
-- raw record. fee is not in the spec's field table; the live service sends it, negative (docs/platform.md,
-- "Withdrawals and deposits").
CREATE OR REPLACE MACRO lp_type_withdrawals(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","clientOid":"VARCHAR",
      "type":"VARCHAR","dest":"VARCHAR","size":"VARCHAR","fee":"VARCHAR","status":"VARCHAR","fromAddress":"VARCHAR",
      "toAddress":"VARCHAR","chain":"VARCHAR","confirm":"VARCHAR","tag":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'withdrawals'
)
SELECT
  account,
  partition,
  key,
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
FROM source;

-- The ledger's legs: the withdrawal by its status (out when the catalog lacks the status), and its fee when not
-- zero; its reference and note by lp_transfer_reference and lp_transfer_note (sql/macros/00_macros.sql).
CREATE OR REPLACE MACRO lp_legs_withdrawals() AS TABLE
SELECT account, 'withdrawals' AS source, order_id AS source_id, 'main' AS leg, ts, 'status' AS field, status AS type,
  'status' AS main_field, status AS main_type, coin AS asset, size AS written, 'out' AS default_direction,
  NULL AS symbol, lp_transfer_reference(dest, trade_id, order_id) AS reference,
  lp_transfer_note(dest, chain) AS note, '' AS pair_scope, '' AS pair_key, 'spot' AS account_type
FROM typed_withdrawals
UNION ALL
SELECT account, 'withdrawals', order_id, 'fee', ts, 'fee', '*', 'status', status, coin, fee, NULL,
  NULL, lp_transfer_reference(dest, trade_id, order_id), lp_transfer_note(dest, chain), '', '', 'spot'
FROM typed_withdrawals WHERE fee <> 0;
