-- p2p_tax_records: GET /api/v2/tax/p2p-record (src/streams/tax-records.ts holds its columns and their meaning).
-- Its macros are made when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_p2p_tax_records, lp_legs_p2p_tax_records
-- reads: lp_amount, typed_p2p_tax_records
-- params: -

-- Typed at load: one row per record, renamed and cast. The amount moved is in `balance` in the newest docs'
-- example and in `total` in earlier docs and SDK types (docs/platform.md): both are kept under their names, and
-- the ledger reads balance, else total.
CREATE OR REPLACE MACRO lp_type_p2p_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","p2pTaxType":"VARCHAR","balance":"VARCHAR","total":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'p2p_tax_records'
)
SELECT
  account,
  partition,
  key,
  r.id                        AS id,
  r.coin                      AS coin,
  r.p2pTaxType                AS p2p_tax_type,
  lp_amount(r.balance)        AS balance,
  lp_amount(r.total)          AS total,
  ts
FROM source;

-- The ledger's legs: the record by p2pTaxType; it has no fee.
CREATE OR REPLACE MACRO lp_legs_p2p_tax_records() AS TABLE
SELECT account, 'p2p_tax_records' AS source, id AS source_id, 'main' AS leg, ts, 'p2pTaxType' AS field, p2p_tax_type AS type,
  'p2pTaxType' AS main_field, p2p_tax_type AS main_type, coin AS asset, coalesce(balance, total) AS written, NULL AS default_direction,
  NULL AS symbol, id AS reference, p2p_tax_type AS note, '' AS pair_scope, '' AS pair_key, 'funding' AS account_type
FROM typed_p2p_tax_records;
