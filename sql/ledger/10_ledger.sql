-- ledger: one row per movement of one asset (docs/ledger.md), built from the legs each stream's SQL
-- (sql/models/<stream>.sql) makes and the type catalog (sql/seeds/type_catalog.csv). amount is signed: + into the
-- account, - out of it. entry_id = source:source_id:leg, stable across runs. trade_group links the legs of one trade.
--
-- Every record gives legs: its main movement, read by its type (marginTaxType, futureTaxType, spotTaxType,
-- p2pTaxType, a withdrawal's or deposit's status, a fill fee entry's deduction), and its fee, profit or fee
-- entries, read by their field (type '*'). The catalog row of (source, field, type) gives the leg its category
-- and direction: 'in' books +abs(amount), 'out' -abs(amount), 'signed' the amount as written, 'none' nothing
-- (a pending status, a movement another stream books). A fee leg is booked only when its record's main
-- movement is. A type the catalog lacks is booked under the category of its 'unreviewed' rule row, in or out
-- by its name (lp_direction_by_name), else by the stream's own direction (withdrawals out, deposits in), else
-- as signed. An unreviewed row's note is the field and the type (sql/ledger/30_unreviewed_types.sql reads it).
--
-- A full transform runs this file over the whole models; an incremental one over the models of the records
-- loaded since the last, copied into the schema lp_delta under the same names (sql/generated/delta_models.sql),
-- which the legs' macros then read, and replaces their rows (src/transform/incremental.ts): one definition for
-- both. The rows are written in the exports' order (ts, entry_id, account: src/export/exporter.ts), so that the
-- exports of a ledger made whole read them as they lie instead of sorting them; an incremental transform keeps
-- that order while few rows sort after its new ones (sql/incremental/30_rows_in.sql moves them; MOVED_ROWS_MAX).
-- creates: ledger
-- reads: lp_alone_legs, lp_directed, lp_direction_by_name, lp_paired_legs, type_catalog
-- params: -
CREATE OR REPLACE TABLE ledger AS
WITH
-- The category of a type the catalog lacks, read as a scalar subquery: a CROSS JOIN with it is slow over the
-- fill rows of a busy year (docs/performance.md, "SQL").
unreviewed AS (
  SELECT (SELECT category FROM type_catalog WHERE source = 'ledgerpipe' AND type = 'unreviewed') AS category
),
-- How each (source, field, type) is booked. A plain projection of the catalog: anything more in it (a subquery,
-- a join) and DuckDB plans the 2M fill rows of a busy year past the memory budget.
booking AS (
  SELECT source, field, type, category, direction, trade_role FROM type_catalog WHERE source <> 'ledgerpipe'
),

-- The legs of the records that pair with the other legs of their stream and millisecond (each stream's
-- lp_legs_<stream>, sql/models/): main_field and main_type name the record's main movement, which decides whether
-- a fee leg is booked and which trade it belongs to. pair_scope and pair_key say which legs of one millisecond form
-- one trade: the margin type and symbol, the product type and symbol, a spot order.
record_legs AS (
  SELECT * FROM lp_paired_legs()
),
booked_records AS (
  SELECT
    l.*,
    coalesce(b.category, (SELECT category FROM unreviewed)) AS category,
    -- A catalog row whose direction is by_name follows the same rule as a type the catalog lacks.
    coalesce(nullif(b.direction, 'by_name'), lp_direction_by_name(l.type), l.default_direction, 'signed') AS direction,
    coalesce(mb.trade_role, '') AS main_role,
    -- What a trade fee joins its trade by: the pair key when it has one, else the pair scope alone.
    CASE WHEN mb.trade_role = 'fee' AND l.pair_key <> '' THEN l.pair_key END AS fee_key,
    CASE WHEN mb.trade_role = 'fee' AND l.pair_key = '' THEN l.pair_scope END AS keyless_fee_scope
  FROM record_legs AS l
  LEFT JOIN booking AS b ON b.source = l.source AND b.field = l.field AND b.type = l.type
  LEFT JOIN booking AS mb ON mb.source = l.source AND mb.field = l.main_field AND mb.type = l.main_type
  WHERE coalesce(b.direction, '') <> 'none' AND coalesce(mb.direction, '') <> 'none'
),

-- Trades: the legs whose main type is a trade leg ('in', 'out', or 'leg' by its sign) and their fee legs form
-- one trade per account, source, pair scope, pair key and millisecond. A record whose type is a trade fee
-- (system_fee_in) joins the trade of its scope, key and millisecond; without a key (a fee with no symbol), the
-- one trade of its scope and millisecond, when there is exactly one, else none (it stands alone).
trades AS (
  SELECT DISTINCT account, source, pair_scope, pair_key, ts,
    source || ':' || pair_scope || ':' || pair_key || ':' || epoch_ms(ts) AS trade_group
  FROM booked_records WHERE main_role IN ('in', 'out', 'leg')
),
only_trade_of_ms AS (
  SELECT account, source, pair_scope, ts, any_value(trade_group) AS trade_group
  FROM trades GROUP BY ALL HAVING count(*) = 1
),
record_rows AS (
  SELECT
    b.account, b.source, b.source_id, b.leg, b.ts, b.category, b.asset,
    lp_directed(b.written, b.direction) AS amount,
    b.symbol, b.reference,
    -- Unreviewed: not in the catalog, or a documented type the catalog books so (futures "unknown").
    CASE WHEN b.category = (SELECT category FROM unreviewed) THEN b.field || ' ' || coalesce(b.type, '') ELSE b.note END AS note,
    CASE
      WHEN b.main_role IN ('in', 'out', 'leg') THEN b.source || ':' || b.pair_scope || ':' || b.pair_key || ':' || epoch_ms(b.ts)
      WHEN b.main_role = 'fee' THEN coalesce(t.trade_group, o.trade_group)
    END AS trade_group,
    b.account_type
  FROM booked_records AS b
  -- Equalities only: a condition on b alone (b.main_role = 'fee') turns these joins into nested loops, which
  -- take minutes for a busy year of every stream (docs/performance.md, "SQL"). fee_key and keyless_fee_scope
  -- are NULL but for fee legs.
  LEFT JOIN trades AS t
    ON t.account = b.account AND t.source = b.source AND t.pair_scope = b.pair_scope AND t.pair_key = b.fee_key AND t.ts = b.ts
  LEFT JOIN only_trade_of_ms AS o
    ON o.account = b.account AND o.source = b.source AND o.pair_scope = b.keyless_fee_scope AND o.ts = b.ts
),

-- Fills, the bulk of the ledger, pair with nothing: their legs stand alone (lp_legs_futures_fills).
fill_legs AS (
  SELECT * FROM lp_alone_legs()
),
fill_rows AS (
  SELECT
    l.account, l.source, l.source_id, l.leg, l.ts,
    coalesce(b.category, (SELECT category FROM unreviewed)) AS category,
    l.asset,
    lp_directed(l.written, coalesce(nullif(b.direction, 'by_name'), lp_direction_by_name(l.type), 'signed')) AS amount,
    l.symbol, l.reference,
    -- No fill field maps to the unreviewed category (checks/00_catalog.sql): not in the catalog is enough.
    CASE WHEN b.type IS NULL THEN l.field || ' ' || l.type ELSE l.note END AS note,
    NULL AS trade_group,
    l.account_type
  FROM fill_legs AS l
  LEFT JOIN booking AS b ON b.source = l.source AND b.field = l.field AND b.type = l.type
  WHERE coalesce(b.direction, '') <> 'none'
),

movements AS (
  SELECT * FROM record_rows
  UNION ALL
  SELECT * FROM fill_rows
)

SELECT
  source || ':' || source_id || ':' || leg AS entry_id,
  account, source, source_id, leg, ts, category, asset,
  CAST(amount AS DECIMAL(38, 18)) AS amount,
  CAST(symbol AS VARCHAR) AS symbol, reference, note,
  CAST(trade_group AS VARCHAR) AS trade_group,
  account_type
FROM movements
ORDER BY ts, entry_id, account;
