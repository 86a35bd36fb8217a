-- The records an incremental transform books again (docs/transform.md; run by
-- src/transform/incremental.ts, in the transform's transaction). A ledger row depends on its record, the type
-- catalog, and, for its trade_group, the other records of its stream at the same millisecond of the same account:
-- so the records rebooked are those loaded since the last transform (pending_changes) and those sharing a
-- millisecond with one, before or after the change. A record whose legs stand alone (a fill) is rebooked alone.
-- The schema lp_delta stays in the warehouse with its tables emptied: DuckDB cannot commit a transaction that
-- made a table, wrote to it and dropped it.
-- creates: changed, moments, rebooked
-- reads: ledger, lp_booked_streams, lp_paired_legs, pending_changes
-- params: -
CREATE SCHEMA IF NOT EXISTS lp_delta;

-- The records loaded or changed since the last transform, of the streams the ledger books.
CREATE OR REPLACE TABLE lp_delta.changed AS
SELECT DISTINCT account, stream AS source, key AS source_id
FROM pending_changes
WHERE stream IN (SELECT source FROM lp_booked_streams());

-- The milliseconds the changed records pair at: as their ledger rows had them, and as their legs have them now.
CREATE OR REPLACE TABLE lp_delta.moments AS
SELECT DISTINCT account, source, ts FROM (
  SELECT l.account, l.source, l.ts
  FROM main.ledger AS l
  SEMI JOIN lp_delta.changed AS c ON c.account = l.account AND c.source = l.source AND c.source_id = l.source_id
  WHERE l.source IN (SELECT source FROM lp_booked_streams() WHERE paired)
  UNION ALL
  SELECT m.account, m.source, m.ts
  FROM lp_paired_legs() AS m
  SEMI JOIN lp_delta.changed AS c ON c.account = m.account AND c.source = m.source AND c.source_id = m.source_id
  WHERE m.leg = 'main'
);

-- The changed records, and every record of a paired stream at one of those milliseconds.
-- result: rebooked
CREATE OR REPLACE TABLE lp_delta.rebooked AS
SELECT account, source, source_id FROM lp_delta.changed
UNION
SELECT m.account, m.source, m.source_id
FROM lp_paired_legs() AS m
SEMI JOIN lp_delta.moments AS t ON t.account = m.account AND t.source = m.source AND t.ts = m.ts
WHERE m.leg = 'main';
