-- uta_financial_records: a unified account's financial records, GET /api/v3/account/financial-records per category and
-- the funding account's GET /api/v3/account/funding-financial-records (src/streams/uta-financial-records.ts holds its
-- columns and their meaning; docs/unified-accounts.md). Its macros are made when the warehouse opens; the view is made
-- by the transform (sql/generated/models.sql).
-- creates: lp_type_uta_financial_records, lp_legs_uta_financial_records
-- reads: lp_amount, typed_uta_financial_records
-- params: -

-- Typed at load: one row per record, renamed and cast.
CREATE OR REPLACE MACRO lp_type_uta_financial_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","symbol":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","groupType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR","balance":"VARCHAR","positionType":"VARCHAR","positionAmount":"VARCHAR",
      "positionBalance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'uta_financial_records'
)
SELECT
  account,
  partition                     AS category,
  key,
  r.id                          AS id,
  nullif(r.symbol, '')          AS symbol,
  r.coin                        AS coin,
  nullif(r.type, '')            AS type,
  nullif(r.groupType, '')       AS group_type,
  lp_amount(r.amount)           AS amount,
  lp_amount(r.fee)              AS fee,
  lp_amount(r.balance)          AS balance,
  nullif(r.positionType, '')    AS position_type,
  lp_amount(r.positionAmount)   AS position_amount,
  lp_amount(r.positionBalance)  AS position_balance,
  ts
FROM source;

-- The ledger's legs. The unified account's categories list the movements its tax records list, which the ledger
-- books from uta_tax_records (they reach 366 days, these 90): their legs are read by their category (field category),
-- which the catalog books from nowhere (tax class booked_elsewhere), whatever their type, so that a type no docs list
-- is not booked twice; their running balance is still checked, by type (sql/completeness/10_balance_breaks.sql). The
-- funding account's records are booked by their groupType (deposit, withdraw, transfer, ...: the grouping the public
-- clients read; docs/unified-accounts.md), their fee apart (field fee, type funding). The legs of one millisecond pair.
CREATE OR REPLACE MACRO lp_legs_uta_financial_records() AS TABLE
WITH read AS (
  SELECT *,
    CASE WHEN category = 'funding' THEN 'groupType' ELSE 'category' END AS by_field,
    CASE WHEN category = 'funding' THEN coalesce(group_type, '') ELSE category END AS by_type,
    category || ' ' || coalesce(group_type || ' ', '') || coalesce(type, '') AS what,
    CASE WHEN category = 'funding' THEN 'funding' ELSE 'unified' END AS moves
  FROM typed_uta_financial_records
)
SELECT account, 'uta_financial_records' AS source, id AS source_id, 'main' AS leg, ts, by_field AS field, by_type AS type,
  by_field AS main_field, by_type AS main_type, coin AS asset, amount AS written, NULL AS default_direction,
  symbol, id AS reference, what AS note, category AS pair_scope, '' AS pair_key, moves AS account_type
FROM read
UNION ALL
SELECT account, 'uta_financial_records', id, 'fee', ts, 'fee', CASE WHEN category = 'funding' THEN 'funding' ELSE '*' END,
  by_field, by_type, coin, fee, NULL, symbol, id, what, category, '', moves
FROM read WHERE fee <> 0;
