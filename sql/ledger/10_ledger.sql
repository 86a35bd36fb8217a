-- ledger: one row per movement of one asset (contract.md, "The ledger"), built from the staging tables.
-- amount is signed: + into the account, - out of it. entry_id = source:source_id:leg, stable across runs.
CREATE OR REPLACE TABLE ledger AS
WITH
-- A margin record: one row, +/- abs(amount) by its type (margin_tax_types). A type not listed there is
-- kept as category 'unknown' with the amount exactly as the platform wrote it (its direction is unknown).
margin_movements AS (
  SELECT
    m.account, 'margin_records' AS source, m.id AS source_id, 'main' AS leg, m.ts,
    coalesce(t.category, 'unknown') AS category,
    m.coin AS asset,
    CASE WHEN t.direction IS NULL THEN m.amount WHEN t.direction > 0 THEN abs(m.amount) ELSE -abs(m.amount) END AS amount,
    m.symbol, m.id AS reference,
    m.margin_type || ' ' || m.margin_tax_type AS note
  FROM margin_records AS m
  LEFT JOIN margin_tax_types AS t USING (margin_tax_type)
),

-- ... plus a fee row, -abs(fee), when the fee is not zero.
margin_fees AS (
  SELECT
    account, 'margin_records' AS source, id AS source_id, 'fee' AS leg, ts,
    'fee' AS category, coin AS asset, -abs(fee) AS amount,
    symbol, id AS reference, margin_type || ' ' || margin_tax_type AS note
  FROM margin_records
  WHERE fee <> 0
),

-- A futures fill: realized profit or loss in the margin coin, when not zero (opening fills have none).
fill_pnl AS (
  SELECT
    account, 'futures_fills' AS source, trade_id AS source_id, 'pnl' AS leg, ts,
    'realized_pnl' AS category, margin_coin AS asset, profit AS amount,
    symbol, order_id AS reference, product_type || ' ' || trade_side AS note
  FROM futures_fills
  WHERE profit <> 0
),

-- ... and one trading_fee row per feeDetail entry, totalFee as given: negative is paid, positive a rebate.
-- An entry whose totalFee is null or zero moves nothing and gets no row.
fill_fees AS (
  SELECT
    account, 'futures_fills' AS source, trade_id AS source_id, 'fee' || n AS leg, ts,
    'trading_fee' AS category, fee_coin AS asset, total_fee AS amount,
    symbol, order_id AS reference,
    product_type || CASE WHEN deduction = 'yes' THEN ' deduction' ELSE '' END AS note
  FROM futures_fill_fees
  WHERE total_fee <> 0
),

-- A withdrawal, only once it succeeded: -size, and the fee, -abs(fee), when present and not zero.
-- reference is the on-chain transaction hash for on-chain withdrawals, else the order id.
successful_withdrawals AS (
  SELECT *, CASE WHEN dest = 'on_chain' THEN coalesce(trade_id, order_id) ELSE order_id END AS reference
  FROM withdrawals
  WHERE status = 'success'
),
withdrawal_moves AS (
  SELECT
    account, 'withdrawals' AS source, order_id AS source_id, 'main' AS leg, ts,
    'withdrawal' AS category, coin AS asset, -abs(size) AS amount,
    NULL AS symbol, reference, dest || coalesce(' ' || chain, '') AS note
  FROM successful_withdrawals
),
withdrawal_fees AS (
  SELECT
    account, 'withdrawals' AS source, order_id AS source_id, 'fee' AS leg, ts,
    'withdrawal_fee' AS category, coin AS asset, -abs(fee) AS amount,
    NULL AS symbol, reference, dest || coalesce(' ' || chain, '') AS note
  FROM successful_withdrawals
  WHERE fee <> 0
),

-- A deposit, only once it succeeded: +size. reference as for withdrawals.
deposit_moves AS (
  SELECT
    account, 'deposits' AS source, order_id AS source_id, 'main' AS leg, ts,
    'deposit' AS category, coin AS asset, abs(size) AS amount,
    NULL AS symbol,
    CASE WHEN dest = 'on_chain' THEN coalesce(trade_id, order_id) ELSE order_id END AS reference,
    dest || coalesce(' ' || chain, '') AS note
  FROM deposits
  WHERE status = 'success'
),

-- A futures tax record: funding_fee when its type says funding, else futures_<type>; amount as given. Only
-- types the fills do not carry are booked (lp_futures_tax_booked): a close is in the fills already.
futures_tax_moves AS (
  SELECT
    account, 'futures_tax_records' AS source, id AS source_id, 'main' AS leg, ts,
    CASE WHEN lower(future_tax_type) LIKE '%funding%' THEN 'funding_fee' ELSE 'futures_' || future_tax_type END AS category,
    margin_coin AS asset, amount,
    symbol, id AS reference, product_type || ' ' || future_tax_type AS note
  FROM futures_tax_records
  WHERE lp_futures_tax_booked(future_tax_type)
),
-- ... plus its fee, as given (negative is paid), when not zero.
futures_tax_fees AS (
  SELECT
    account, 'futures_tax_records' AS source, id AS source_id, 'fee' AS leg, ts,
    'futures_fee' AS category, margin_coin AS asset, fee AS amount,
    symbol, id AS reference, product_type || ' ' || future_tax_type AS note
  FROM futures_tax_records
  WHERE fee <> 0 AND lp_futures_tax_booked(future_tax_type)
),

-- Spot and P2P tax records keep their type as the category; amounts as given (P2P's is in `balance`).
-- Spot deposits and withdrawals are booked from their own streams (lp_spot_tax_booked).
spot_tax_moves AS (
  SELECT
    account, 'spot_tax_records' AS source, id AS source_id, 'main' AS leg, ts,
    spot_tax_type AS category, coin AS asset, amount,
    NULL AS symbol, coalesce(biz_order_id, id) AS reference, spot_tax_type AS note
  FROM spot_tax_records
  WHERE lp_spot_tax_booked(spot_tax_type)
),
spot_tax_fees AS (
  SELECT
    account, 'spot_tax_records' AS source, id AS source_id, 'fee' AS leg, ts,
    'spot_fee' AS category, coin AS asset, fee AS amount,
    NULL AS symbol, coalesce(biz_order_id, id) AS reference, spot_tax_type AS note
  FROM spot_tax_records
  WHERE fee <> 0 AND lp_spot_tax_booked(spot_tax_type)
),
p2p_tax_moves AS (
  SELECT
    account, 'p2p_tax_records' AS source, id AS source_id, 'main' AS leg, ts,
    p2p_tax_type AS category, coin AS asset, balance AS amount,
    NULL AS symbol, id AS reference, p2p_tax_type AS note
  FROM p2p_tax_records
),

movements AS (
  SELECT * FROM margin_movements
  UNION ALL SELECT * FROM margin_fees
  UNION ALL SELECT * FROM fill_pnl
  UNION ALL SELECT * FROM fill_fees
  UNION ALL SELECT * FROM withdrawal_moves
  UNION ALL SELECT * FROM withdrawal_fees
  UNION ALL SELECT * FROM deposit_moves
  UNION ALL SELECT * FROM futures_tax_moves
  UNION ALL SELECT * FROM futures_tax_fees
  UNION ALL SELECT * FROM spot_tax_moves
  UNION ALL SELECT * FROM spot_tax_fees
  UNION ALL SELECT * FROM p2p_tax_moves
)

SELECT
  source || ':' || source_id || ':' || leg AS entry_id,
  account, source, source_id, leg, ts, category, asset,
  CAST(amount AS DECIMAL(38, 18)) AS amount,
  CAST(symbol AS VARCHAR) AS symbol, reference, note
FROM movements
-- Stored in export order (ts, then entry_id): exports read it as it lies, without sorting again.
ORDER BY ts, entry_id, account;
