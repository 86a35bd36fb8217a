-- The new rows in (run by src/transform/incremental.ts). With the variable lp_keep_order (the ledger lies in the
-- exports' order and few enough rows sort after the earliest new one), those later rows move: out here, and in
-- again with the new rows, so that the ledger stays in order. New rows go in in the exports' order: a parallel
-- insert would append them in any order.
-- creates: later
-- reads: ledger, lp_later_rows
-- params: lp_keep_order
CREATE OR REPLACE TABLE lp_delta.later AS
SELECT * FROM lp_later_rows() WHERE getvariable('lp_keep_order');

-- result: moved
DELETE FROM main.ledger AS l
USING lp_delta.later AS m
WHERE l.account = m.account AND l.entry_id = m.entry_id;

-- result: inserted
INSERT INTO main.ledger BY NAME
SELECT * FROM (
  SELECT * FROM lp_delta.ledger
  UNION ALL
  SELECT * FROM lp_delta.later
)
ORDER BY ts, entry_id, account;
