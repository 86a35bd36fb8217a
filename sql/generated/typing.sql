-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by `npm run generate`: do not edit.
-- The typing of each stream (docs/adding-a-stream.md): the macro lp_type_<stream>(src), made from the stream's
-- columns, each with its field and cast (src/streams/source.ts), renames and casts the stream's records of any
-- relation with raw_records' columns. Of a stream typed at load, the raw writer runs it over each batch as it is
-- committed (src/warehouse/typed-at-load.ts), the transform over raw_records when the typing changed; of the others,
-- their SQL makes its table of it. What is more than a cast is in the stream's SQL (sql/models/<stream>.sql).
-- creates: lp_type_margin_records, lp_type_futures_fills, lp_type_withdrawals, lp_type_p2p_advertisements, lp_type_deposits, lp_type_futures_tax_records, lp_type_spot_tax_records, lp_type_p2p_tax_records, lp_type_uta_tax_records, lp_type_uta_financial_records, lp_type_copy_transfers, lp_type_copy_profit_shares, lp_type_lead_trader_profits, lp_type_account_balances, lp_type_asset_balances, lp_type_loans
-- reads: lp_amount, lp_fill_margin_coin, lp_fill_fee, lp_fee_detail, lp_ms
-- params: -

-- margin_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_margin_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","symbol":"VARCHAR","marginTaxType":"VARCHAR","amount":"VARCHAR",
      "fee":"VARCHAR","total":"VARCHAR","balance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'margin_records'
)
SELECT
  account,
  partition                                AS margin_type,
  key,
  r.id                                     AS id,
  r.coin                                   AS coin,
  nullif(r.symbol, '')                     AS symbol,
  r.marginTaxType                          AS margin_tax_type,
  lp_amount(r.amount)                      AS amount,
  lp_amount(r.fee)                         AS fee,
  lp_amount(coalesce(r.total, r.balance))  AS total,
  ts
FROM source;

-- futures_fills: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_futures_fills(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"tradeId":"VARCHAR","orderId":"VARCHAR","symbol":"VARCHAR","price":"VARCHAR","baseVolume":"VARCHAR",
      "quoteVolume":"VARCHAR","side":"VARCHAR","tradeSide":"VARCHAR","posMode":"VARCHAR",
      "tradeScope":"VARCHAR","enterPointSource":"VARCHAR","profit":"VARCHAR","marginCoin":"VARCHAR",
      "feeDetail":"JSON"}') AS r
  FROM query_table(src)
  WHERE stream = 'futures_fills'
)
SELECT
  account,
  partition                                               AS product_type,
  key,
  r.tradeId                                               AS trade_id,
  r.orderId                                               AS order_id,
  r.symbol                                                AS symbol,
  lp_amount(r.price)                                      AS price,
  lp_amount(r.baseVolume)                                 AS base_volume,
  lp_amount(r.quoteVolume)                                AS quote_volume,
  r.side                                                  AS side,
  r.tradeSide                                             AS trade_side,
  r.posMode                                               AS pos_mode,
  r.tradeScope                                            AS trade_scope,
  r.enterPointSource                                      AS enter_point_source,
  lp_amount(r.profit)                                     AS profit,
  lp_fill_margin_coin(partition, r.marginCoin, r.symbol)  AS margin_coin,
  lp_fill_fee(lp_fee_detail(r.feeDetail))                 AS fee,
  lp_fee_detail(r.feeDetail)[1].feeCoin                   AS fee_coin,
  r.feeDetail                                             AS fee_detail,
  ts
FROM source;

-- withdrawals: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_withdrawals(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","clientOid":"VARCHAR","type":"VARCHAR",
      "dest":"VARCHAR","size":"VARCHAR","fee":"VARCHAR","status":"VARCHAR","fromAddress":"VARCHAR",
      "toAddress":"VARCHAR","chain":"VARCHAR","confirm":"VARCHAR","tag":"VARCHAR","uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'withdrawals'
)
SELECT
  account,
  partition,
  key,
  r.orderId                  AS order_id,
  nullif(r.tradeId, '')      AS trade_id,
  r.coin                     AS coin,
  nullif(r.clientOid, '')    AS client_oid,
  r.type                     AS type,
  r.dest                     AS dest,
  lp_amount(r.size)          AS size,
  lp_amount(r.fee)           AS fee,
  r.status                   AS status,
  nullif(r.fromAddress, '')  AS from_address,
  nullif(r.toAddress, '')    AS to_address,
  nullif(r.chain, '')        AS chain,
  nullif(r.confirm, '')      AS confirm,
  nullif(r.tag, '')          AS tag,
  lp_ms(r.uTime)             AS u_time,
  ts
FROM source;

-- p2p_advertisements: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_p2p_advertisements(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts, payload,
    json_transform(payload, '{"advId":"VARCHAR","advNo":"VARCHAR","side":"VARCHAR","coin":"VARCHAR","fiat":"VARCHAR",
      "fiatSymbol":"VARCHAR","advSize":"VARCHAR","size":"VARCHAR","price":"VARCHAR",
      "minTradeAmount":"VARCHAR","maxTradeAmount":"VARCHAR","status":"VARCHAR","hide":"VARCHAR",
      "payDuration":"VARCHAR","turnoverNum":"VARCHAR","turnoverRate":"VARCHAR","label":"VARCHAR",
      "uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'p2p_advertisements'
)
SELECT
  account,
  r.advId                                                            AS adv_id,
  r.advNo                                                            AS adv_no,
  r.side                                                             AS side,
  r.coin                                                             AS coin,
  r.fiat                                                             AS fiat,
  r.fiatSymbol                                                       AS fiat_symbol,
  lp_amount(r.advSize)                                               AS adv_size,
  lp_amount(r.size)                                                  AS size,
  lp_amount(r.price)                                                 AS price,
  lp_amount(r.minTradeAmount)                                        AS min_trade_amount,
  lp_amount(r.maxTradeAmount)                                        AS max_trade_amount,
  r.status                                                           AS status,
  r.hide                                                             AS hide,
  r.payDuration                                                      AS pay_duration,
  r.turnoverNum                                                      AS turnover_num,
  r.turnoverRate                                                     AS turnover_rate,
  nullif(r.label, '')                                                AS label,
  lp_ms(coalesce(r.uTime, json_extract_string(payload, '$.utime')))  AS u_time,
  ts
FROM source;

-- deposits: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_deposits(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"orderId":"VARCHAR","tradeId":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","size":"VARCHAR",
      "status":"VARCHAR","toAddress":"VARCHAR","dest":"VARCHAR","chain":"VARCHAR","fromAddress":"VARCHAR",
      "uTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'deposits'
)
SELECT
  account,
  partition,
  key,
  r.orderId                  AS order_id,
  nullif(r.tradeId, '')      AS trade_id,
  r.coin                     AS coin,
  r.type                     AS type,
  lp_amount(r.size)          AS size,
  r.status                   AS status,
  nullif(r.toAddress, '')    AS to_address,
  r.dest                     AS dest,
  nullif(r.chain, '')        AS chain,
  nullif(r.fromAddress, '')  AS from_address,
  lp_ms(r.uTime)             AS u_time,
  ts
FROM source;

-- futures_tax_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_futures_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","symbol":"VARCHAR","marginCoin":"VARCHAR","futureTaxType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'futures_tax_records'
)
SELECT
  account,
  partition,
  key,
  partition             AS product_type,
  r.id                  AS id,
  nullif(r.symbol, '')  AS symbol,
  r.marginCoin          AS margin_coin,
  r.futureTaxType       AS future_tax_type,
  lp_amount(r.amount)   AS amount,
  lp_amount(r.fee)      AS fee,
  ts
FROM source;

-- spot_tax_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_spot_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","spotTaxType":"VARCHAR","amount":"VARCHAR","fee":"VARCHAR",
      "balance":"VARCHAR","bizOrderId":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'spot_tax_records'
)
SELECT
  account,
  partition,
  key,
  r.id                      AS id,
  r.coin                    AS coin,
  r.spotTaxType             AS spot_tax_type,
  lp_amount(r.amount)       AS amount,
  lp_amount(r.fee)          AS fee,
  lp_amount(r.balance)      AS balance,
  nullif(r.bizOrderId, '')  AS biz_order_id,
  ts
FROM source;

-- p2p_tax_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
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
  r.id                  AS id,
  r.coin                AS coin,
  r.p2pTaxType          AS p2p_tax_type,
  lp_amount(r.balance)  AS balance,
  lp_amount(r.total)    AS total,
  ts
FROM source;

-- uta_tax_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_uta_tax_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","amount":"VARCHAR","fee":"VARCHAR",
      "balance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'uta_tax_records'
)
SELECT
  account,
  partition             AS biz_type,
  key,
  r.id                  AS id,
  r.coin                AS coin,
  r.type                AS type,
  lp_amount(r.amount)   AS amount,
  lp_amount(r.fee)      AS fee,
  lp_amount(r.balance)  AS balance,
  ts
FROM source;

-- uta_financial_records: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_uta_financial_records(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"id":"VARCHAR","symbol":"VARCHAR","coin":"VARCHAR","type":"VARCHAR","groupType":"VARCHAR",
      "amount":"VARCHAR","fee":"VARCHAR","balance":"VARCHAR","positionType":"VARCHAR",
      "positionAmount":"VARCHAR","positionBalance":"VARCHAR"}') AS r
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

-- copy_transfers: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_copy_transfers(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"fromType":"VARCHAR","toType":"VARCHAR","coin":"VARCHAR","amount":"VARCHAR","status":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'copy_transfers'
)
SELECT
  account,
  partition            AS project_id,
  key,
  key                  AS transfer_key,
  r.fromType           AS from_type,
  r.toType             AS to_type,
  r.coin               AS coin,
  lp_amount(r.amount)  AS amount,
  r.status             AS status,
  ts
FROM source;

-- copy_profit_shares: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_copy_profit_shares(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"profit":"VARCHAR","allocatedPnl":"VARCHAR","pendingPnl":"VARCHAR","shareRatio":"VARCHAR",
      "shareProfit":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'copy_profit_shares'
)
SELECT
  account,
  partition                  AS project_id,
  key,
  key                        AS settle_key,
  lp_amount(r.profit)        AS profit,
  lp_amount(r.allocatedPnl)  AS allocated_pnl,
  lp_amount(r.pendingPnl)    AS pending_pnl,
  lp_amount(r.shareRatio)    AS share_ratio,
  lp_amount(r.shareProfit)   AS share_profit,
  ts
FROM source;

-- lead_trader_profits: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
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
  partition,
  key,
  r.profitId              AS profit_id,
  upper(r.coin)           AS coin,
  lp_amount(r.profit)     AS profit,
  nullif(r.nickName, '')  AS nick_name,
  ts
FROM source;

-- account_balances: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_account_balances(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts,
    json_transform(payload, '{"accountType":"VARCHAR","usdtBalance":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'account_balances'
)
SELECT
  account,
  r.accountType             AS account_type,
  lp_amount(r.usdtBalance)  AS usdt_balance,
  ts
FROM source;

-- asset_balances: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_asset_balances(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts, payload,
    json_transform(payload, '{"coin":"VARCHAR","marginCoin":"VARCHAR","symbol":"VARCHAR","ledgerpipeUnavailable":"VARCHAR",
      "available":"VARCHAR","frozen":"VARCHAR","locked":"VARCHAR","limitAvailable":"VARCHAR",
      "totalAmount":"VARCHAR","borrow":"VARCHAR","interest":"VARCHAR","net":"VARCHAR","coupon":"VARCHAR",
      "accountEquity":"VARCHAR","usdtEquity":"VARCHAR","btcEquity":"VARCHAR","unrealizedPL":"VARCHAR",
      "crossedMaxAvailable":"VARCHAR","isolatedMaxAvailable":"VARCHAR","maxTransferOut":"VARCHAR",
      "crossedRiskRate":"VARCHAR","crossedUnrealizedPL":"VARCHAR","isolatedUnrealizedPL":"VARCHAR",
      "isolatedMargin":"VARCHAR","crossedMargin":"VARCHAR","amount":"VARCHAR","usdtValue":"VARCHAR",
      "equity":"VARCHAR","bonus":"VARCHAR","balance":"VARCHAR","debt":"VARCHAR","usdValue":"VARCHAR",
      "estValue":"VARCHAR","estNetProfit":"VARCHAR","profitShare":"VARCHAR","currentInvestment":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'asset_balances'
)
SELECT
  account,
  ts                                                                                               AS snapshot_at,
  partition                                                                                        AS account_type,
  upper(nullif(coalesce(r.coin, r.marginCoin, CASE WHEN partition = 'copy' THEN 'USDT' END), ''))  AS asset,
  CASE WHEN partition = 'copy' THEN split_part(key, ':', 2) ELSE nullif(r.symbol, '') END          AS symbol,
  CASE WHEN partition = 'bots' THEN split_part(split_part(key, ':', 2), ':', 1) END                AS bot_account_type,
  r.ledgerpipeUnavailable                                                                          AS unavailable,
  lp_amount(r.available)                                                                           AS available,
  lp_amount(r.frozen)                                                                              AS frozen,
  lp_amount(r.locked)                                                                              AS locked,
  lp_amount(r.limitAvailable)                                                                      AS limit_available,
  lp_amount(r.totalAmount)                                                                         AS total_amount,
  lp_amount(r.borrow)                                                                              AS borrow,
  lp_amount(r.interest)                                                                            AS interest,
  lp_amount(r.net)                                                                                 AS net,
  lp_amount(r.coupon)                                                                              AS coupon,
  lp_amount(r.accountEquity)                                                                       AS account_equity,
  lp_amount(r.usdtEquity)                                                                          AS usdt_equity,
  lp_amount(r.btcEquity)                                                                           AS btc_equity,
  lp_amount(r.unrealizedPL)                                                                        AS unrealized_pl,
  lp_amount(r.crossedMaxAvailable)                                                                 AS crossed_max_available,
  lp_amount(r.isolatedMaxAvailable)                                                                AS isolated_max_available,
  lp_amount(r.maxTransferOut)                                                                      AS max_transfer_out,
  lp_amount(r.crossedRiskRate)                                                                     AS crossed_risk_rate,
  lp_amount(r.crossedUnrealizedPL)                                                                 AS crossed_unrealized_pl,
  lp_amount(r.isolatedUnrealizedPL)                                                                AS isolated_unrealized_pl,
  lp_amount(r.isolatedMargin)                                                                      AS isolated_margin,
  lp_amount(r.crossedMargin)                                                                       AS crossed_margin,
  lp_amount(r.amount)                                                                              AS amount,
  lp_amount(r.usdtValue)                                                                           AS usdt_value,
  lp_amount(r.equity)                                                                              AS equity,
  lp_amount(r.bonus)                                                                               AS bonus,
  lp_amount(r.balance)                                                                             AS balance,
  lp_amount(r.debt)                                                                                AS debt,
  lp_amount(r.usdValue)                                                                            AS usd_value,
  lp_amount(r.estValue)                                                                            AS est_value,
  lp_amount(r.estNetProfit)                                                                        AS est_net_profit,
  lp_amount(r.profitShare)                                                                         AS profit_share,
  lp_amount(r.currentInvestment)                                                                   AS current_investment,
  CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END                      AS fields,
  key
FROM source;

-- loans: one row per record, its fields renamed and cast (its columns' sources: src/streams/).
CREATE OR REPLACE MACRO lp_type_loans(src) AS TABLE
WITH source AS (
  SELECT
    account, partition, key, ts, payload,
    json_transform(payload, '{"orderId":"VARCHAR","ledgerpipeUnavailable":"VARCHAR","loanCoin":"VARCHAR","loanAmount":"VARCHAR",
      "interestAmount":"VARCHAR","pledgeCoin":"VARCHAR","pledgeAmount":"VARCHAR",
      "hourInterestRate":"VARCHAR","pledgeRate":"VARCHAR","borrowTime":"VARCHAR","expireTime":"VARCHAR"}') AS r
  FROM query_table(src)
  WHERE stream = 'loans'
)
SELECT
  account,
  ts                                                                           AS as_of,
  CASE WHEN r.ledgerpipeUnavailable IS NULL THEN r.orderId END                 AS order_id,
  upper(r.loanCoin)                                                            AS coin,
  lp_amount(r.loanAmount)                                                      AS amount,
  lp_amount(r.interestAmount)                                                  AS interest,
  upper(r.pledgeCoin)                                                          AS collateral_coin,
  lp_amount(r.pledgeAmount)                                                    AS collateral_amount,
  lp_amount(r.hourInterestRate)                                                AS hour_interest_rate,
  lp_amount(r.pledgeRate)                                                      AS pledge_rate,
  lp_ms(r.borrowTime)                                                          AS borrowed_at,
  lp_ms(r.expireTime)                                                          AS expires_at,
  r.ledgerpipeUnavailable                                                      AS unavailable,
  CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END  AS fields,
  key
FROM source;
