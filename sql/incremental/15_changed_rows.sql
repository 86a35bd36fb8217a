-- Notes in ledger_changes (sql/warehouse/016_gains_kept.sql) the earliest instant of the ledger rows an
-- incremental transform changes (run by src/transform/incremental.ts before 20_rows_out.sql): the rows of the
-- rebooked records (lp_delta.rebooked) as they are (main.ledger) and as they will be (lp_delta.ledger), compared
-- on what the gains read of them; rows made again the same change nothing, and note nothing. Reads main.ledger,
-- lp_delta.rebooked, lp_delta.ledger; no parameters.
-- creates: -
-- reads: ledger, ledger_changes, rebooked
-- params: -
INSERT INTO ledger_changes
WITH
now_booked AS (
  SELECT l.account, l.entry_id, l.ts, l.asset, l.amount, l.category, l.trade_group
  FROM main.ledger AS l
  SEMI JOIN lp_delta.rebooked AS r ON l.account = r.account AND l.source = r.source AND l.source_id = r.source_id
),
to_be_booked AS (
  SELECT account, entry_id, ts, asset, amount, category, trade_group FROM lp_delta.ledger
),
changed AS (
  (SELECT * FROM now_booked EXCEPT ALL SELECT * FROM to_be_booked)
  UNION ALL
  (SELECT * FROM to_be_booked EXCEPT ALL SELECT * FROM now_booked)
)
SELECT min(ts), 'ledger rows booked again' FROM changed HAVING count(*) > 0;
