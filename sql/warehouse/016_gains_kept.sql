-- Realized gains kept, not recomputed (issue 45; docs/gains.md, "Kept, not recomputed"): what the gains engine
-- (src/gains/kept.ts) keeps between runs, and where the ledger changed since it last read it.
-- creates: ledger_changes, gains_kept, gains_kept_points, gains_kept_states
-- reads: -
-- params: -

-- Where the ledger's rows or their values changed since the gains last read them: `since` the earliest instant
-- changed, NULL for the whole ledger. Noted by the transform (sql/incremental/15_changed_rows.sql; a ledger made
-- whole: sql/ledger/40_ledger_changed.sql) and by the prices stage (src/prices/span-writer.ts, a candle new or
-- changed); read, and emptied once taken in, by the gains.
CREATE TABLE IF NOT EXISTS ledger_changes (
  since TIMESTAMPTZ,
  what  VARCHAR NOT NULL
);

-- The computation the tables disposals and lots hold, one row: what it was computed from (fingerprint: the
-- settings that matter and digests of the opening lots, the catalog's meanings, the price routes and the fiat's
-- rates), the instant every movement before which it took in (head_ms), and the range's end it was asked for
-- (until_ms, open_at_ms: the UK rules). No row: nothing kept, and the next computation starts from the first
-- movement (a run stopped half way leaves none: the row is written last).
CREATE TABLE IF NOT EXISTS gains_kept (
  fingerprint VARCHAR NOT NULL,
  head_ms     BIGINT  NOT NULL,
  until_ms    BIGINT,
  open_at_ms  BIGINT
);

-- The instants the engine can go on from: each month's start (UTC) and the last head.
CREATE TABLE IF NOT EXISTS gains_kept_points (
  at_ms BIGINT NOT NULL
);

-- The engine's state per pool and asset at those instants (src/gains/matcher-state.ts, JSON): the lots open, or
-- the pool, and the UK days still open to their 30 days, after every movement before at_ms. A pool and asset has
-- a row at an instant only when it moved since its row before: its state at a point is its last row up to it.
CREATE TABLE IF NOT EXISTS gains_kept_states (
  at_ms BIGINT  NOT NULL,
  pool  VARCHAR NOT NULL,
  asset VARCHAR NOT NULL,
  state VARCHAR NOT NULL
);
