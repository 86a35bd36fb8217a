-- The ledger rows of the rebooked records out (run by src/transform/incremental.ts, after sql/ledger/10_ledger.sql
-- made their new rows in lp_delta.ledger and the checks passed over them). Rows are keyed by account, source
-- and source id: the new rows take the old ones' place.
-- creates: lp_later_rows
-- reads: ledger, rebooked
-- params: lp_in_order
-- result: deleted
DELETE FROM main.ledger AS l
USING lp_delta.rebooked AS r
WHERE l.account = r.account AND l.source = r.source AND l.source_id = r.source_id;

-- The rows kept that sort after the earliest new one, read from that one's time on: none when every new row is
-- newer than all before (a night of new records). A few (a withdrawal of last week that moved to success) go in
-- again with the new rows, in order (sql/incremental/30_rows_in.sql); more, and the order is given up. A macro of
-- this session's own: the rows are only counted here, and made a table only when they move.
CREATE OR REPLACE TEMP MACRO lp_later_rows() AS TABLE
SELECT * FROM main.ledger
WHERE ts >= (SELECT min(ts) FROM lp_delta.ledger)
  AND (ts, entry_id, account) > (SELECT min((ts, entry_id, account)) FROM lp_delta.ledger);

-- How many, while the ledger lies in the exports' order (the variable lp_in_order); else none are moved.
-- result: later
SELECT count(*) FROM lp_later_rows() WHERE getvariable('lp_in_order');
