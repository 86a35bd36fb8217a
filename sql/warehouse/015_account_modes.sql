-- Which kind of account each key drives (docs/unified-accounts.md): classic (v2 endpoints) or uta, a unified trading
-- account (v3 endpoints), as found by GET /api/v3/account/settings on the run that last read the account. The streams
-- an account is read with, and those the gap rule holds it to, are those of its mode.
-- creates: account_modes
-- reads: -
-- params: -
CREATE TABLE IF NOT EXISTS account_modes (
  account VARCHAR PRIMARY KEY,
  mode VARCHAR NOT NULL,
  account_mode VARCHAR,
  how VARCHAR NOT NULL,
  found_at TIMESTAMPTZ NOT NULL
);
