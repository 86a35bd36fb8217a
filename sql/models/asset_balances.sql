-- asset_balances: the per-asset balance endpoints, one per account type (src/streams/asset-balances.ts holds the
-- columns and their meaning; docs/completeness.md, "Balances"). A table the transform makes from raw_records when a snapshot was
-- taken since the last. A part the key could not read is one marker record {"ledgerpipeUnavailable": why}.
--
-- quantity, the amount the ledger is compared with, per account type (docs/completeness.md, "Balances", which cites each):
--   spot: available + frozen + locked (the docs give them as disjoint parts; a public client adds them so).
--   futures: accountEquity - unrealizedPL: the docs say equity includes unrealized PnL, which no record holds
--     until it is realized; in every real response published, that difference is the wallet balance
--     (= available in cross margin, available + isolatedMargin with an isolated position).
--   margin: totalAmount (borrowed coins included: the ledger books a borrow as coin in).
--   earn: amount. funding: available + frozen (an empty frozen, as in the docs' example, is none).
--   bots: available + frozen for the spot bots, equity for the futures bots (no ledger explains either).
--   unified (a unified account): balance ("Coin balance"; equity may hold unrealized PnL, as a futures account's does).
--     The funding account of a unified account follows the funding rule (its docs' example: balance = available + frozen).
--   copy (a follower's copy-trading project): estValue, its value with unrealized PnL (no record explains its trading).
-- creates: asset_balances
-- reads: lp_amount, raw_records
-- params: -
CREATE OR REPLACE TABLE asset_balances AS
WITH source AS (
  SELECT account, partition AS account_type, key, ts, payload,
    json_transform(payload, '{"coin":"VARCHAR","marginCoin":"VARCHAR","symbol":"VARCHAR","ledgerpipeUnavailable":"VARCHAR",
      "available":"VARCHAR","frozen":"VARCHAR","locked":"VARCHAR","limitAvailable":"VARCHAR","totalAmount":"VARCHAR",
      "borrow":"VARCHAR","interest":"VARCHAR","net":"VARCHAR","coupon":"VARCHAR","accountEquity":"VARCHAR",
      "usdtEquity":"VARCHAR","btcEquity":"VARCHAR","unrealizedPL":"VARCHAR","crossedMaxAvailable":"VARCHAR",
      "isolatedMaxAvailable":"VARCHAR","maxTransferOut":"VARCHAR","crossedRiskRate":"VARCHAR","crossedUnrealizedPL":"VARCHAR",
      "isolatedUnrealizedPL":"VARCHAR","isolatedMargin":"VARCHAR","crossedMargin":"VARCHAR","amount":"VARCHAR",
      "usdtValue":"VARCHAR","equity":"VARCHAR","bonus":"VARCHAR","balance":"VARCHAR","debt":"VARCHAR","usdValue":"VARCHAR","estValue":"VARCHAR","estNetProfit":"VARCHAR",
      "profitShare":"VARCHAR","currentInvestment":"VARCHAR"}') AS r
  FROM raw_records
  WHERE stream = 'asset_balances'
),
typed AS (
  SELECT
    account,
    ts                                          AS snapshot_at,
    account_type,
    -- Upper case, as every record writes a coin (the docs' spot example writes usdt).
    -- A copy-trading account names no coin: its amounts are in USDT.
    upper(nullif(coalesce(r.coin, r.marginCoin, CASE WHEN account_type = 'copy' THEN 'USDT' END), '')) AS asset,
    -- The project of a copy-trading row, which its key holds (snapshot time, then project).
    CASE WHEN account_type = 'copy' THEN split_part(key, ':', 2) ELSE nullif(r.symbol, '') END AS symbol,
    CASE WHEN account_type = 'bots' THEN split_part(split_part(key, ':', 2), ':', 1) END AS bot_account_type,
    r.ledgerpipeUnavailable                     AS unavailable,
    lp_amount(r.available) AS available, lp_amount(r.frozen) AS frozen, lp_amount(r.locked) AS locked,
    lp_amount(r.limitAvailable) AS limit_available, lp_amount(r.totalAmount) AS total_amount,
    lp_amount(r.borrow) AS borrow, lp_amount(r.interest) AS interest, lp_amount(r.net) AS net,
    lp_amount(r.coupon) AS coupon, lp_amount(r.accountEquity) AS account_equity, lp_amount(r.usdtEquity) AS usdt_equity,
    lp_amount(r.btcEquity) AS btc_equity, lp_amount(r.unrealizedPL) AS unrealized_pl,
    lp_amount(r.crossedMaxAvailable) AS crossed_max_available, lp_amount(r.isolatedMaxAvailable) AS isolated_max_available,
    lp_amount(r.maxTransferOut) AS max_transfer_out, lp_amount(r.crossedRiskRate) AS crossed_risk_rate,
    lp_amount(r.crossedUnrealizedPL) AS crossed_unrealized_pl, lp_amount(r.isolatedUnrealizedPL) AS isolated_unrealized_pl,
    lp_amount(r.isolatedMargin) AS isolated_margin, lp_amount(r.crossedMargin) AS crossed_margin,
    lp_amount(r.amount) AS amount, lp_amount(r.usdtValue) AS usdt_value, lp_amount(r.equity) AS equity,
    lp_amount(r.bonus) AS bonus, lp_amount(r.balance) AS balance, lp_amount(r.debt) AS debt, lp_amount(r.usdValue) AS usd_value,
    lp_amount(r.estValue) AS est_value, lp_amount(r.estNetProfit) AS est_net_profit, lp_amount(r.profitShare) AS profit_share,
    lp_amount(r.currentInvestment) AS current_investment,
    CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END AS fields,
    key
  FROM source
)
SELECT
  account, snapshot_at, account_type, asset, symbol, bot_account_type,
  CAST(CASE
    WHEN unavailable IS NOT NULL THEN NULL
    WHEN account_type = 'spot' THEN available + coalesce(frozen, 0) + coalesce(locked, 0)
    WHEN account_type LIKE '%\_futures' ESCAPE '\' THEN account_equity - unrealized_pl
    WHEN account_type LIKE 'margin\_%' ESCAPE '\' THEN total_amount
    WHEN account_type = 'earn' THEN amount
    WHEN account_type = 'funding' THEN available + coalesce(frozen, 0)
    WHEN account_type = 'bots' AND bot_account_type = 'futures' THEN equity
    WHEN account_type = 'bots' THEN available + coalesce(frozen, 0)
    WHEN account_type = 'unified' THEN balance
    WHEN account_type = 'copy' THEN est_value
  END AS DECIMAL(38, 18)) AS quantity,
  unavailable,
  available, frozen, locked, limit_available, total_amount, borrow, interest, net, coupon, account_equity,
  usdt_equity, btc_equity, unrealized_pl, crossed_max_available, isolated_max_available, max_transfer_out,
  crossed_risk_rate, crossed_unrealized_pl, isolated_unrealized_pl, isolated_margin, crossed_margin, amount,
  usdt_value, equity, bonus, balance, debt, usd_value, est_value, est_net_profit, profit_share, current_investment, fields, key
FROM typed;
