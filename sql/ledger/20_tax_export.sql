-- The views the tax-software files are made of (sql/exports/koinly.sql, sql/exports/cointracking.sql), and the
-- ones that account for every ledger row: in a file, or left out with its reason. docs/tax-files.md.
-- creates: category_meaning, tax_export_excluded, lp_tax_legs, lp_tax_export_rows, tax_export_rows, tax_export_entries
-- reads: ledger, tax_classes, type_catalog
-- params: -

-- category_meaning: per ledger category, its tax class and how each tool writes it, from the type catalog (a
-- category maps one way only: checks/00_catalog.sql), and whether its rows go into the tax files.
CREATE OR REPLACE VIEW category_meaning AS
SELECT
  c.category,
  any_value(c.tax_class)       AS tax_class,
  max(c.koinly_in)             AS koinly_in,
  max(c.koinly_out)            AS koinly_out,
  max(c.cointracking_in)       AS cointracking_in,
  max(c.cointracking_out)      AS cointracking_out,
  any_value(t.in_tax_files)    AS in_tax_files,
  any_value(t.meaning)         AS tax_class_meaning
FROM type_catalog AS c
JOIN tax_classes AS t USING (tax_class)
WHERE c.category <> ''
GROUP BY c.category;

-- tax_export_excluded: every ledger row the tax files leave out, with the reason.
CREATE OR REPLACE VIEW tax_export_excluded AS
SELECT
  l.entry_id, l.account,
  CASE WHEN NOT m.in_tax_files THEN m.tax_class || ': ' || m.tax_class_meaning ELSE 'zero: the row moves nothing' END AS reason
FROM ledger AS l
JOIN category_meaning AS m USING (category)
WHERE NOT m.in_tax_files OR l.amount = 0;

-- lp_tax_legs(range_from, range_to): the ledger rows of [range_from, range_to) that go into the tax files, with their
-- tax class, the tools' words for it, and their part in a trade (received, sent or fee; none outside a trade).
CREATE OR REPLACE MACRO lp_tax_legs(range_from, range_to) AS TABLE
SELECT
  l.*, m.tax_class, m.koinly_in, m.koinly_out, m.cointracking_in, m.cointracking_out,
  CASE
    WHEN l.trade_group IS NULL THEN NULL
    WHEN m.tax_class IN ('trade_leg', 'conversion') THEN CASE WHEN l.amount > 0 THEN 'received' ELSE 'sent' END
    ELSE 'fee'
  END AS part
FROM ledger AS l
JOIN category_meaning AS m USING (category)
WHERE m.in_tax_files AND l.amount <> 0 AND l.ts >= range_from AND l.ts < range_to;

-- tax_export_rows: one row per row of the tax files, with what each tool writes in it.
--
-- Trades: the ledger rows of one trade_group whose tax class is trade_leg or conversion are its legs, the others
-- its fees. A group with one asset received and another sent is one trade row. Its fees in the received asset
-- (f_r) and in the sent asset (f_s) go into that row as each tool asks: Koinly takes Sent, Received and a fee
-- that is paid in addition ("100 USD Sent / 10 USD Fee / 1 BTC Received, or 110 USD Sent / 1 BTC Received"), so
-- Sent = sent + f_s and Fee = f_r; CoinTracking's amounts include the fee and its Fee column is informational
-- ("Entering fees"), so Buy = received - f_r and Sell = sent + f_s. A fee in a third asset (BGB) is a row of
-- its own (CoinTracking: "create an additional transaction as OTHER FEE"). A group that is no such trade
-- (one side missing, several assets on a side, fees larger than an amount) is written leg by leg, each leg
-- marked for review. CoinTracking's Fee column shows the fee paid; a rebate is in the amounts only.
--
-- Withdrawals: the fee row of a withdrawal goes into the withdrawal's row: Koinly's Sent and CoinTracking's Sell
-- are the amount with the fee (Koinly: "Fees can not be added to incoming or outgoing transactions";
-- CoinTracking: "the fee needs to be entered as additional amount on the sell side"), CoinTracking's Fee column
-- shows it.
--
-- lp_tax_export_rows(range_from, range_to): the rows of the ledger rows of [range_from, range_to), which are the
-- rows of that range: a row's entries lie at one instant (a trade's legs and fees share their trade_group, which
-- the ledger makes per millisecond, sql/ledger/10_ledger.sql; a folded fee is a leg of its withdrawal's record;
-- any other row is one entry). An export reads its range's rows so (sql/exports/tax_rows_of_range.sql), at the
-- cost of its range's rows rather than of every trade of the history (docs/performance.md, "Gains kept").
--
-- The legs (lp_tax_legs) are read five times, each read a scan filtered to what it needs (the trades' legs, the
-- withdrawals and their fees), not a CTE: DuckDB makes a CTE read more than once a table of every column, and over a
-- busy year's 2.18M legs each read of it took 1-1.7 s (a CTE's NOT MATERIALIZED does not survive: DuckDB 1.5 stores
-- the macro without it). A fee folded into its withdrawal is left out of the singles by an anti join rather than
-- NOT EXISTS, which DuckDB ran as a join of its own over every leg. A busy year's rows: 7.6-9.8 s before, 2.3-2.9 s
-- after, the same rows (docs/performance.md, "Gains kept").
CREATE OR REPLACE MACRO lp_tax_export_rows(range_from, range_to) AS TABLE
WITH
sides AS (
  SELECT account, trade_group, part, asset, sum(amount) AS amount
  FROM lp_tax_legs(range_from, range_to) WHERE trade_group IS NOT NULL GROUP BY ALL
),
shapes AS (
  SELECT
    account, trade_group,
    count(*) FILTER (WHERE part = 'received')   AS received_assets,
    count(*) FILTER (WHERE part = 'sent')       AS sent_assets,
    any_value(asset) FILTER (WHERE part = 'received') AS r_asset,
    sum(amount) FILTER (WHERE part = 'received')      AS r,
    any_value(asset) FILTER (WHERE part = 'sent')     AS s_asset,
    -sum(amount) FILTER (WHERE part = 'sent')         AS s
  FROM sides GROUP BY ALL
),
trades AS (
  SELECT sh.*, f.f_r, f.f_s
  FROM shapes AS sh
  JOIN (
    SELECT sh.account, sh.trade_group,
      coalesce(-sum(d.amount) FILTER (WHERE d.asset = sh.r_asset), 0) AS f_r,
      coalesce(-sum(d.amount) FILTER (WHERE d.asset = sh.s_asset), 0) AS f_s
    FROM shapes AS sh
    LEFT JOIN sides AS d ON d.account = sh.account AND d.trade_group = sh.trade_group AND d.part = 'fee'
    GROUP BY sh.account, sh.trade_group
  ) AS f USING (account, trade_group)
  WHERE sh.received_assets = 1 AND sh.sent_assets = 1 AND sh.r_asset <> sh.s_asset AND sh.r - f.f_r > 0 AND sh.s + f.f_s > 0
),
trade_rows AS (
  SELECT
    t.account, min(l.ts) AS ts, min(l.entry_id) AS row_id, list(l.entry_id ORDER BY l.entry_id) AS entries,
    any_value(l.source) AS source, 'trade' AS category,
    'trade ' || t.trade_group || ': ' || string_agg(l.entry_id, ' ' ORDER BY l.entry_id) AS description,
    t.s + t.f_s AS koinly_sent, t.s_asset AS koinly_sent_asset,
    t.r + greatest(-t.f_r, 0) AS koinly_received, t.r_asset AS koinly_received_asset,
    CASE WHEN t.f_r > 0 THEN t.f_r END AS koinly_fee, CASE WHEN t.f_r > 0 THEN t.r_asset END AS koinly_fee_asset,
    NULL AS koinly_tag,
    any_value(l.cointracking_in) FILTER (WHERE l.part = 'received') AS cointracking_type,
    t.r - t.f_r AS cointracking_buy, t.r_asset AS cointracking_buy_asset,
    t.s + t.f_s AS cointracking_sell, t.s_asset AS cointracking_sell_asset,
    -- Informational: the fee paid, in the received asset, else in the sent one. A rebate is in the amounts only.
    CASE WHEN t.f_r > 0 THEN t.f_r WHEN t.f_s > 0 THEN t.f_s END AS cointracking_fee,
    CASE WHEN t.f_r > 0 THEN t.r_asset WHEN t.f_s > 0 THEN t.s_asset END AS cointracking_fee_asset,
    NULL AS review,
    NULL AS tx_hash
  FROM trades AS t
  JOIN lp_tax_legs(range_from, range_to) AS l ON l.account = t.account AND l.trade_group = t.trade_group AND (l.part <> 'fee' OR l.asset IN (t.r_asset, t.s_asset))
  GROUP BY t.account, t.trade_group, t.r, t.r_asset, t.s, t.s_asset, t.f_r, t.f_s
),
-- Entry ids are unique per account only: every join on them carries the account.
folded_fees AS (
  SELECT f.account, f.entry_id AS fee_entry, w.entry_id AS into_entry, -f.amount AS fee
  FROM lp_tax_legs(range_from, range_to) AS f
  JOIN lp_tax_legs(range_from, range_to) AS w ON w.account = f.account AND w.source = f.source AND w.source_id = f.source_id AND w.asset = f.asset
    AND w.tax_class = 'external_withdrawal' AND w.amount < 0
  WHERE f.tax_class = 'withdrawal_fee'
),
unpaired AS (
  SELECT koinly_in, koinly_out, cointracking_in, cointracking_out
  FROM type_catalog WHERE source = 'ledgerpipe' AND type = 'unpaired_trade_leg'
),
singles AS (
  SELECT l.*, (l.part IN ('received', 'sent')) AS is_unpaired, ff.fee AS folded_fee, ff.fee_entry AS folded_entry
  FROM lp_tax_legs(range_from, range_to) AS l
  LEFT JOIN trades AS t ON t.account = l.account AND t.trade_group = l.trade_group
  LEFT JOIN folded_fees AS ff ON ff.account = l.account AND ff.into_entry = l.entry_id
  ANTI JOIN folded_fees AS f ON f.account = l.account AND f.fee_entry = l.entry_id
  WHERE (t.trade_group IS NULL OR (l.part = 'fee' AND l.asset NOT IN (t.r_asset, t.s_asset)))
),
single_rows AS (
  SELECT
    s.account, s.ts, s.entry_id AS row_id, list_filter([s.entry_id, s.folded_entry], e -> e IS NOT NULL) AS entries,
    s.source, s.category,
    s.category || ' ' || s.entry_id || coalesce(' ' || s.folded_entry, '') AS description,
    CASE WHEN s.amount < 0 THEN -s.amount + coalesce(s.folded_fee, 0) END AS koinly_sent,
    CASE WHEN s.amount < 0 THEN s.asset END AS koinly_sent_asset,
    CASE WHEN s.amount > 0 THEN s.amount END AS koinly_received,
    CASE WHEN s.amount > 0 THEN s.asset END AS koinly_received_asset,
    NULL AS koinly_fee, NULL AS koinly_fee_asset,
    nullif(CASE
      WHEN s.is_unpaired THEN CASE WHEN s.amount > 0 THEN u.koinly_in ELSE u.koinly_out END
      ELSE CASE WHEN s.amount > 0 THEN s.koinly_in ELSE s.koinly_out END
    END, '') AS koinly_tag,
    CASE
      WHEN s.is_unpaired THEN CASE WHEN s.amount > 0 THEN u.cointracking_in ELSE u.cointracking_out END
      ELSE CASE WHEN s.amount > 0 THEN s.cointracking_in ELSE s.cointracking_out END
    END AS cointracking_type,
    CASE WHEN s.amount > 0 THEN s.amount END AS cointracking_buy,
    CASE WHEN s.amount > 0 THEN s.asset END AS cointracking_buy_asset,
    CASE WHEN s.amount < 0 THEN -s.amount + coalesce(s.folded_fee, 0) END AS cointracking_sell,
    CASE WHEN s.amount < 0 THEN s.asset END AS cointracking_sell_asset,
    s.folded_fee AS cointracking_fee,
    CASE WHEN s.folded_fee IS NOT NULL THEN s.asset END AS cointracking_fee_asset,
    CASE
      WHEN s.is_unpaired THEN 'a trade leg that makes no one trade (one coin in, another out, fees below the amounts) with the rest of ' || s.trade_group
      WHEN s.tax_class = 'unreviewed' THEN 'a type not in the catalog: ' || s.note
      WHEN s.tax_class = 'unclear' THEN 'the platform does not say what this is: ' || s.note
    END AS review,
    CASE WHEN s.source IN ('withdrawals', 'deposits') AND s.note LIKE 'on_chain%' THEN s.reference END AS tx_hash
  FROM singles AS s
  CROSS JOIN unpaired AS u
)
SELECT * FROM trade_rows
UNION ALL
SELECT * FROM single_rows;

CREATE OR REPLACE VIEW tax_export_rows AS
SELECT * FROM lp_tax_export_rows(CAST('-infinity' AS TIMESTAMPTZ), CAST('infinity' AS TIMESTAMPTZ));

-- tax_export_entries: every ledger row that is in the tax files, and the row it is in (row_id: the row's first
-- entry). With tax_export_excluded, it accounts for every ledger row.
CREATE OR REPLACE VIEW tax_export_entries AS
SELECT unnest(entries) AS entry_id, account, row_id FROM tax_export_rows;
