-- ledgerpipe warehouse: the tables extraction writes. Safe to run again: every statement is idempotent.
-- Times are TIMESTAMPTZ (absolute instants); ledgerpipe's sessions run with TimeZone = 'UTC'.
-- creates: raw_records, coverage, learned_windows, runs, schema_drift, quarantine
-- reads: -
-- params: -

-- One row per record as received, unique per account, stream, partition and key. Replaying the
-- transforms needs nothing else. A record fetched again keeps first_fetched_at and takes the new payload.
CREATE TABLE IF NOT EXISTS raw_records (
  account          VARCHAR     NOT NULL,
  stream           VARCHAR     NOT NULL,
  partition        VARCHAR     NOT NULL,  -- marginType, productType, or '' for none
  key              VARCHAR     NOT NULL,  -- id, tradeId, orderId, advId; snapshot time + accountType
  ts               TIMESTAMPTZ NOT NULL,  -- the record's own time: ts, cTime, or the snapshot time
  payload          JSON        NOT NULL,  -- the record exactly as served, unknown fields included
  first_fetched_at TIMESTAMPTZ NOT NULL,
  last_fetched_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (account, stream, partition, key)
);

-- One row per window of one partition: done, or open with the cursor to resume from. A page's records
-- and its cursor commit in one transaction, so a run killed at any instant resumes exactly.
CREATE TABLE IF NOT EXISTS coverage (
  account      VARCHAR     NOT NULL,
  stream       VARCHAR     NOT NULL,
  partition    VARCHAR     NOT NULL,
  window_start TIMESTAMPTZ NOT NULL,  -- inclusive
  window_end   TIMESTAMPTZ NOT NULL,  -- exclusive
  status       VARCHAR     NOT NULL,  -- 'open' or 'done'
  cursor       VARCHAR,               -- idLessThan for the next page while open
  pages        INTEGER     NOT NULL,
  rows         BIGINT      NOT NULL,  -- records of this window loaded (inside the run's range)
  tie_pages    INTEGER     NOT NULL,  -- page breaks inside a run of records sharing one millisecond
  run_id       VARCHAR     NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (account, stream, partition, window_start, window_end)
);

-- The widest window each endpoint accepted, when the server refused a wider one.
CREATE TABLE IF NOT EXISTS learned_windows (
  account    VARCHAR     NOT NULL,
  stream     VARCHAR     NOT NULL,
  window_ms  BIGINT      NOT NULL,
  reason     VARCHAR     NOT NULL,  -- the server's message
  learned_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (account, stream)
);

CREATE TABLE IF NOT EXISTS runs (
  run_id       VARCHAR     PRIMARY KEY,
  account      VARCHAR     NOT NULL,
  command      VARCHAR     NOT NULL,
  range_from   TIMESTAMPTZ,
  range_to     TIMESTAMPTZ,
  started_at   TIMESTAMPTZ NOT NULL,
  finished_at  TIMESTAMPTZ,
  status       VARCHAR     NOT NULL,  -- 'running', 'done', 'incomplete', 'failed'
  exit_code    INTEGER,
  message      VARCHAR,
  requests     BIGINT,
  rate_limited BIGINT,
  retries      BIGINT,
  records      BIGINT
);

-- Fields seen that the stream's schema does not know (kept in the payload), or known fields missing.
CREATE TABLE IF NOT EXISTS schema_drift (
  account       VARCHAR     NOT NULL,
  stream        VARCHAR     NOT NULL,
  field         VARCHAR     NOT NULL,
  kind          VARCHAR     NOT NULL,  -- 'unknown' or 'missing'
  sample        VARCHAR,
  first_seen_at TIMESTAMPTZ NOT NULL,
  run_id        VARCHAR     NOT NULL,
  PRIMARY KEY (account, stream, field, kind)
);

-- Records that failed their schema: kept here, out of raw_records, and the run ends with exit 4.
CREATE TABLE IF NOT EXISTS quarantine (
  account    VARCHAR     NOT NULL,
  stream     VARCHAR     NOT NULL,
  partition  VARCHAR     NOT NULL,
  key        VARCHAR     NOT NULL,  -- the record's id, or a hash of the payload when it has none
  payload    VARCHAR     NOT NULL,
  error      VARCHAR     NOT NULL,
  fetched_at TIMESTAMPTZ NOT NULL,
  run_id     VARCHAR     NOT NULL,
  PRIMARY KEY (account, stream, partition, key)
);
