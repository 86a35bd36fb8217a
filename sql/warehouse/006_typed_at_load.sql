-- Typed at load (docs/transform.md): each futures fill's and margin record's typed columns, written
-- with its raw record (sql/generated/typing.sql), so that the transform reads columns instead of parsing JSON.
-- The transform fills it from raw_records when it is not of this release, as for a warehouse of an earlier one.
-- creates: typed_futures_fills, typed_margin_records
-- reads: -
-- params: -
CREATE TABLE IF NOT EXISTS typed_futures_fills (
  account            VARCHAR       NOT NULL,
  product_type       VARCHAR       NOT NULL,
  key                VARCHAR       NOT NULL,
  trade_id           VARCHAR,
  order_id           VARCHAR,
  symbol             VARCHAR,
  price              DECIMAL(38, 18),
  base_volume        DECIMAL(38, 18),
  quote_volume       DECIMAL(38, 18),
  side               VARCHAR,
  trade_side         VARCHAR,
  pos_mode           VARCHAR,
  trade_scope        VARCHAR,
  enter_point_source VARCHAR,
  profit             DECIMAL(38, 18),
  margin_coin        VARCHAR,
  fee                DECIMAL(38, 18),
  fee_coin           VARCHAR,
  fee_detail         JSON,
  ts                 TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, product_type, key)
);

CREATE TABLE IF NOT EXISTS typed_margin_records (
  account         VARCHAR       NOT NULL,
  margin_type     VARCHAR       NOT NULL,
  key             VARCHAR       NOT NULL,
  id              VARCHAR,
  coin            VARCHAR,
  symbol          VARCHAR,
  margin_tax_type VARCHAR,
  amount          DECIMAL(38, 18),
  fee             DECIMAL(38, 18),
  total           DECIMAL(38, 18),
  ts              TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, margin_type, key)
);
