-- Incremental models (docs/transform.md). Every stream the ledger books is typed at load
-- (sql/generated/typing.sql); 006 made the tables of the first two.
-- creates: typed_withdrawals, typed_deposits, typed_futures_tax_records, typed_spot_tax_records, typed_p2p_tax_records, pending_changes
-- reads: -
-- params: -
CREATE TABLE IF NOT EXISTS typed_withdrawals (
  account       VARCHAR       NOT NULL,
  partition     VARCHAR       NOT NULL,
  key           VARCHAR       NOT NULL,
  order_id      VARCHAR,
  trade_id      VARCHAR,
  coin          VARCHAR,
  client_oid    VARCHAR,
  type          VARCHAR,
  dest          VARCHAR,
  size          DECIMAL(38, 18),
  fee           DECIMAL(38, 18),
  status        VARCHAR,
  from_address  VARCHAR,
  to_address    VARCHAR,
  chain         VARCHAR,
  confirm       VARCHAR,
  tag           VARCHAR,
  u_time        TIMESTAMPTZ,
  ts            TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, partition, key)
);

CREATE TABLE IF NOT EXISTS typed_deposits (
  account       VARCHAR       NOT NULL,
  partition     VARCHAR       NOT NULL,
  key           VARCHAR       NOT NULL,
  order_id      VARCHAR,
  trade_id      VARCHAR,
  coin          VARCHAR,
  type          VARCHAR,
  size          DECIMAL(38, 18),
  status        VARCHAR,
  to_address    VARCHAR,
  dest          VARCHAR,
  chain         VARCHAR,
  from_address  VARCHAR,
  u_time        TIMESTAMPTZ,
  ts            TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, partition, key)
);

CREATE TABLE IF NOT EXISTS typed_futures_tax_records (
  account          VARCHAR       NOT NULL,
  partition        VARCHAR       NOT NULL,
  key              VARCHAR       NOT NULL,
  product_type     VARCHAR,
  id               VARCHAR,
  symbol           VARCHAR,
  margin_coin      VARCHAR,
  future_tax_type  VARCHAR,
  amount           DECIMAL(38, 18),
  fee              DECIMAL(38, 18),
  ts               TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, partition, key)
);

CREATE TABLE IF NOT EXISTS typed_spot_tax_records (
  account        VARCHAR       NOT NULL,
  partition      VARCHAR       NOT NULL,
  key            VARCHAR       NOT NULL,
  id             VARCHAR,
  coin           VARCHAR,
  spot_tax_type  VARCHAR,
  amount         DECIMAL(38, 18),
  fee            DECIMAL(38, 18),
  balance        DECIMAL(38, 18),
  biz_order_id   VARCHAR,
  ts             TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, partition, key)
);

CREATE TABLE IF NOT EXISTS typed_p2p_tax_records (
  account        VARCHAR       NOT NULL,
  partition      VARCHAR       NOT NULL,
  key            VARCHAR       NOT NULL,
  id             VARCHAR,
  coin           VARCHAR,
  p2p_tax_type   VARCHAR,
  balance        DECIMAL(38, 18),
  total          DECIMAL(38, 18),
  ts             TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (account, partition, key)
);

-- The records loaded since the last transform (each page's, in the page's transaction; those moved back from
-- quarantine): the incremental transform rebuilds their ledger rows and empties it in its own transaction.
CREATE TABLE IF NOT EXISTS pending_changes (
  account    VARCHAR NOT NULL,
  stream     VARCHAR NOT NULL,
  partition  VARCHAR NOT NULL,
  key        VARCHAR NOT NULL,
  PRIMARY KEY (account, stream, partition, key)
);
