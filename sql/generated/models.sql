-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by `npm run generate`: do not edit.
-- The models of the streams typed at load: views on their typed tables (sql/generated/typing.sql types the records
-- as they load), and the models made from them.
-- creates: margin_records, futures_fills, futures_fill_fees, withdrawals, deposits, futures_tax_records, spot_tax_records, p2p_tax_records, uta_tax_records, uta_financial_records, copy_transfers, copy_profit_shares, lead_trader_profits, lp_booked_streams, lp_account_type_sources, lp_paired_legs, lp_alone_legs
-- reads: lp_futures_fill_fees, lp_legs_copy_profit_shares, lp_legs_copy_transfers, lp_legs_deposits, lp_legs_futures_fills, lp_legs_futures_tax_records, lp_legs_lead_trader_profits, lp_legs_margin_records, lp_legs_p2p_tax_records, lp_legs_spot_tax_records, lp_legs_uta_financial_records, lp_legs_uta_tax_records, lp_legs_withdrawals, typed_copy_profit_shares, typed_copy_transfers, typed_deposits, typed_futures_fills, typed_futures_tax_records, typed_lead_trader_profits, typed_margin_records, typed_p2p_tax_records, typed_spot_tax_records, typed_uta_financial_records, typed_uta_tax_records, typed_withdrawals
-- params: -

CREATE OR REPLACE VIEW margin_records AS
SELECT
  account, margin_type, id, coin, symbol, margin_tax_type, amount, fee, total, ts
FROM typed_margin_records;

CREATE OR REPLACE VIEW futures_fills AS
SELECT
  account, product_type, trade_id, order_id, symbol, price, base_volume, quote_volume, side,
  trade_side, pos_mode, trade_scope, enter_point_source, profit, margin_coin, fee, fee_coin,
  fee_detail, ts
FROM typed_futures_fills;

CREATE OR REPLACE VIEW futures_fill_fees AS
SELECT * FROM lp_futures_fill_fees();

CREATE OR REPLACE VIEW withdrawals AS
SELECT
  account, order_id, trade_id, coin, client_oid, type, dest, size, fee, status, from_address,
  to_address, chain, confirm, tag, u_time, ts
FROM typed_withdrawals;

CREATE OR REPLACE VIEW deposits AS
SELECT
  account, order_id, trade_id, coin, type, size, status, to_address, dest, chain, from_address,
  u_time, ts
FROM typed_deposits;

CREATE OR REPLACE VIEW futures_tax_records AS
SELECT
  account, product_type, id, symbol, margin_coin, future_tax_type, amount, fee, ts
FROM typed_futures_tax_records;

CREATE OR REPLACE VIEW spot_tax_records AS
SELECT
  account, id, coin, spot_tax_type, amount, fee, balance, biz_order_id, ts
FROM typed_spot_tax_records;

CREATE OR REPLACE VIEW p2p_tax_records AS
SELECT
  account, id, coin, p2p_tax_type, balance, total, ts
FROM typed_p2p_tax_records;

CREATE OR REPLACE VIEW uta_tax_records AS
SELECT
  account, biz_type, id, coin, type, amount, fee, balance, ts
FROM typed_uta_tax_records;

CREATE OR REPLACE VIEW uta_financial_records AS
SELECT
  account, category, id, symbol, coin, type, group_type, amount, fee, balance, position_type,
  position_amount, position_balance, ts
FROM typed_uta_financial_records;

CREATE OR REPLACE VIEW copy_transfers AS
SELECT
  account, project_id, transfer_key, from_type, to_type, coin, amount, status, ts
FROM typed_copy_transfers;

CREATE OR REPLACE VIEW copy_profit_shares AS
SELECT
  account, project_id, settle_key, profit, allocated_pnl, pending_pnl, share_ratio, share_profit, ts
FROM typed_copy_profit_shares;

CREATE OR REPLACE VIEW lead_trader_profits AS
SELECT
  account, profit_id, coin, profit, nick_name, ts
FROM typed_lead_trader_profits;

-- The streams the ledger books, and whether their legs pair with others of their millisecond
-- (sql/ledger/10_ledger.sql, src/transform/incremental.ts).
CREATE OR REPLACE MACRO lp_booked_streams() AS TABLE
SELECT * FROM (VALUES
  ('margin_records', true),
  ('futures_fills', false),
  ('withdrawals', true),
  ('deposits', true),
  ('futures_tax_records', true),
  ('spot_tax_records', true),
  ('p2p_tax_records', true),
  ('uta_tax_records', true),
  ('uta_financial_records', true),
  ('copy_transfers', true),
  ('copy_profit_shares', true),
  ('lead_trader_profits', true)) AS s(source, paired);

-- The streams and partitions whose records move each account type's balances (each partition's accountType,
-- src/streams/), for each kind of account that reads them (docs/unified-accounts.md): a span of an account type is
-- covered by the ledger when each of those of the account's kind is (sql/completeness/).
CREATE OR REPLACE MACRO lp_account_type_sources() AS TABLE
SELECT * FROM (VALUES
  ('margin_records', 'crossed', 'margin_crossed', 'classic'),
  ('margin_records', 'isolated', 'margin_isolated', 'classic'),
  ('futures_fills', 'USDT-FUTURES', 'usdt_futures', 'classic'),
  ('futures_fills', 'COIN-FUTURES', 'coin_futures', 'classic'),
  ('futures_fills', 'USDC-FUTURES', 'usdc_futures', 'classic'),
  ('withdrawals', '', 'spot', 'classic'),
  ('deposits', '', 'spot', 'classic'),
  ('futures_tax_records', 'USDT-FUTURES', 'usdt_futures', 'classic'),
  ('futures_tax_records', 'COIN-FUTURES', 'coin_futures', 'classic'),
  ('futures_tax_records', 'USDC-FUTURES', 'usdc_futures', 'classic'),
  ('spot_tax_records', '', 'spot', 'classic'),
  ('p2p_tax_records', '', 'funding', 'classic'),
  ('uta_tax_records', 'SPOT', 'unified', 'uta'),
  ('uta_tax_records', 'MARGIN-crossed', 'unified', 'uta'),
  ('uta_tax_records', 'MARGIN-isolated', 'unified', 'uta'),
  ('uta_tax_records', 'USDT-FUTURES', 'unified', 'uta'),
  ('uta_tax_records', 'COIN-FUTURES', 'unified', 'uta'),
  ('uta_tax_records', 'USDC-FUTURES', 'unified', 'uta'),
  ('uta_tax_records', 'OTHER', 'unified', 'uta'),
  ('uta_financial_records', 'funding', 'funding', 'uta')) AS s(stream, partition, account_type, account_mode);

-- The ledger's legs of every record it books (each stream's lp_legs_<stream>): those that pair with the other
-- legs of their stream and millisecond into one trade, and those that stand alone. The ledger and the checks read
-- them; an incremental transform reads them over the changed records' copies in the schema lp_delta.
CREATE OR REPLACE MACRO lp_paired_legs() AS TABLE
SELECT * FROM lp_legs_margin_records()
UNION ALL SELECT * FROM lp_legs_withdrawals()
UNION ALL SELECT * FROM lp_legs_deposits()
UNION ALL SELECT * FROM lp_legs_futures_tax_records()
UNION ALL SELECT * FROM lp_legs_spot_tax_records()
UNION ALL SELECT * FROM lp_legs_p2p_tax_records()
UNION ALL SELECT * FROM lp_legs_uta_tax_records()
UNION ALL SELECT * FROM lp_legs_uta_financial_records()
UNION ALL SELECT * FROM lp_legs_copy_transfers()
UNION ALL SELECT * FROM lp_legs_copy_profit_shares()
UNION ALL SELECT * FROM lp_legs_lead_trader_profits();

CREATE OR REPLACE MACRO lp_alone_legs() AS TABLE
SELECT * FROM lp_legs_futures_fills();
