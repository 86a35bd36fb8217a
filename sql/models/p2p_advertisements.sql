-- p2p_advertisements: GET /api/v2/p2p/advList, one row per advertisement (src/streams/p2p-advertisements.ts holds its
-- columns, each with its field and cast). A table the transform makes from raw_records when records of its stream were
-- loaded since the last, typed by lp_type_p2p_advertisements (sql/generated/typing.sql): the ledger does not book it,
-- and it is not typed at load. An advertisement is read once per side and status (the partitions), so one whose status
-- changed was read under more than one: the last fetched is kept.
-- creates: p2p_advertisements
-- reads: raw_records, lp_type_p2p_advertisements
-- params: -
CREATE OR REPLACE TABLE p2p_advertisements AS
WITH latest AS (
  SELECT *
  FROM raw_records
  WHERE stream = 'p2p_advertisements'
  QUALIFY row_number() OVER (PARTITION BY account, key ORDER BY last_fetched_at DESC, partition) = 1
)
SELECT * FROM lp_type_p2p_advertisements('latest')
ORDER BY ts, adv_id, account;
