-- p2p_advertisements: GET /api/v2/p2p/advList, one row per advertisement, renamed and cast (src/streams/
-- p2p-advertisements.ts holds its columns and their meaning). A table the transform makes from raw_records when
-- records of its stream were loaded since the last: the ledger does not book it, and it is not typed at load.
-- An advertisement is read once per side and status (the partitions), so one whose status changed was read
-- under more than one: the last fetched is kept.
-- The docs' field table spells the update time uTime, their example utime: either is read. DuckDB matches
-- struct fields without regard to case, so the second spelling is read from the JSON by its own path.
-- creates: p2p_advertisements
-- reads: lp_amount, lp_ms, raw_records
-- params: -
CREATE OR REPLACE TABLE p2p_advertisements AS
WITH latest AS (
  SELECT account, ts, payload
  FROM raw_records
  WHERE stream = 'p2p_advertisements'
  QUALIFY row_number() OVER (PARTITION BY account, key ORDER BY last_fetched_at DESC, partition) = 1
),
source AS (
  SELECT
    account, ts,
    json_transform(payload, '{"advId":"VARCHAR","advNo":"VARCHAR","side":"VARCHAR","coin":"VARCHAR","fiat":"VARCHAR",
      "fiatSymbol":"VARCHAR","advSize":"VARCHAR","size":"VARCHAR","price":"VARCHAR","minTradeAmount":"VARCHAR",
      "maxTradeAmount":"VARCHAR","status":"VARCHAR","hide":"VARCHAR","payDuration":"VARCHAR","turnoverNum":"VARCHAR",
      "turnoverRate":"VARCHAR","label":"VARCHAR","uTime":"VARCHAR"}') AS r,
    json_extract_string(payload, '$.utime') AS utime
  FROM latest
),
renamed AS (
  SELECT
    account,
    r.advId                          AS adv_id,
    r.advNo                          AS adv_no,
    r.side                           AS side,
    r.coin                           AS coin,
    r.fiat                           AS fiat,
    r.fiatSymbol                     AS fiat_symbol,
    lp_amount(r.advSize)             AS adv_size,
    lp_amount(r.size)                AS size,
    lp_amount(r.price)               AS price,
    lp_amount(r.minTradeAmount)      AS min_trade_amount,
    lp_amount(r.maxTradeAmount)      AS max_trade_amount,
    r.status                         AS status,
    r.hide                           AS hide,
    r.payDuration                    AS pay_duration,
    r.turnoverNum                    AS turnover_num,
    r.turnoverRate                   AS turnover_rate,
    nullif(r.label, '')              AS label,
    lp_ms(coalesce(r.uTime, utime)) AS u_time,
    ts
  FROM source
)
SELECT * FROM renamed
ORDER BY ts, adv_id, account;
