-- Fourth release: the warehouse as the books an accountant keeps (docs/settings.md, docs/history.md).
-- creates: settings, opening_lots, user_catalog, account_openings
-- reads: coverage
-- params: -

-- The settings every later command keeps, one row (src/models/settings.ts says each column; src/warehouse/settings.ts
-- writes it). An earlier release's warehouse gets its row from what it recorded (src/warehouse/settings.ts,
-- earlierReleaseSettings and recordedOrFirst) the first time a command of this release settles them.
CREATE TABLE IF NOT EXISTS settings (
  fiat VARCHAR,
  fiat_source VARCHAR,
  time_zone VARCHAR,
  cost_basis VARCHAR,
  pool VARCHAR,
  tax_year_start VARCHAR,
  withdrawals VARCHAR,
  opening_lots_sha256 VARCHAR,
  catalog_version VARCHAR,
  history_from VARCHAR,
  set_at STRUCT(fiat TIMESTAMPTZ, fiat_source TIMESTAMPTZ, time_zone TIMESTAMPTZ, cost_basis TIMESTAMPTZ, pool TIMESTAMPTZ, tax_year_start TIMESTAMPTZ, withdrawals TIMESTAMPTZ, opening_lots_sha256 TIMESTAMPTZ, catalog_version TIMESTAMPTZ, history_from TIMESTAMPTZ),
  set_by STRUCT(fiat VARCHAR, fiat_source VARCHAR, time_zone VARCHAR, cost_basis VARCHAR, pool VARCHAR, tax_year_start VARCHAR, withdrawals VARCHAR, opening_lots_sha256 VARCHAR, catalog_version VARCHAR, history_from VARCHAR)
);

-- The lots of --opening-lots, kept: a later command without the flag computes with them too.
CREATE TABLE IF NOT EXISTS opening_lots (
  account VARCHAR NOT NULL,
  asset VARCHAR NOT NULL,
  quantity DECIMAL(38, 18) NOT NULL,
  cost DECIMAL(38, 18) NOT NULL,
  currency VARCHAR NOT NULL,
  acquired_at TIMESTAMPTZ NOT NULL
);

-- The user's --catalog file, kept as given: a later command without the flag books with it too.
CREATE TABLE IF NOT EXISTS user_catalog (
  file VARCHAR NOT NULL,
  sha256 VARCHAR NOT NULL,
  content VARCHAR NOT NULL,
  set_at TIMESTAMPTZ NOT NULL
);

-- When each account was opened (GET /api/v2/spot/account/info, regisTime): the cost basis's history starts there.
CREATE TABLE IF NOT EXISTS account_openings (
  account VARCHAR PRIMARY KEY,
  registered_at TIMESTAMPTZ NOT NULL,
  read_at TIMESTAMPTZ NOT NULL
);

-- Windows the platform refused as older than it reaches (status 'unreachable'; docs/history.md): on those rows, the
-- earliest instant the platform answered for the partition.
ALTER TABLE coverage ADD COLUMN IF NOT EXISTS earliest_reachable TIMESTAMPTZ;
