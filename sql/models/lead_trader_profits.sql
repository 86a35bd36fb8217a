-- lead_trader_profits: GET /api/v2/copy/mix-trader/profit-history-details, a lead trader's profit shares received
-- (src/streams/copy-trading.ts holds its columns and their meaning; docs/unified-accounts.md, "Copy trading"). Its
-- macros are made when the warehouse opens; the view is made by the transform (sql/generated/models.sql).
-- creates: lp_type_lead_trader_profits, lp_legs_lead_trader_profits
-- reads: lp_amount, typed_lead_trader_profits
-- params: -

-- Typed at load: one row per share, renamed and cast.
CREATE OR REPLACE MACRO lp_type_lead_trader_profits(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"profitId":"VARCHAR","coin":"VARCHAR","profit":"VARCHAR","nickName":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'lead_trader_profits'
)
SELECT
  account,
  partition                 AS partition,
  key,
  r.profitId                AS profit_id,
  -- Upper case, as every record writes a coin (the docs' example writes usdt).
  upper(r.coin)             AS coin,
  lp_amount(r.profit)       AS profit,
  nullif(r.nickName, '')    AS nick_name,
  ts
FROM source;

-- The ledger's legs: the share received, in the USDT-M futures account (the futures bills call it
-- tracking_trader_income). The type catalog says whether it is booked from here or from the futures tax records.
CREATE OR REPLACE MACRO lp_legs_lead_trader_profits() AS TABLE
SELECT account, 'lead_trader_profits' AS source, profit_id AS source_id, 'main' AS leg, ts, 'profit' AS field, '*' AS type,
  'profit' AS main_field, '*' AS main_type, coin AS asset, profit AS written, NULL AS default_direction,
  NULL AS symbol, profit_id AS reference, 'profit share from ' || coalesce(nick_name, 'a follower') AS note,
  '' AS pair_scope, '' AS pair_key, 'usdt_futures' AS account_type
FROM typed_lead_trader_profits;
