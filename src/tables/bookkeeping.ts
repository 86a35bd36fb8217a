import { accountColumn, instant, json, text, type TableDef } from '../streams/table.js';

// The tables extraction and the transform keep their work in (sql/warehouse/; docs/extraction.md).

export const rawRecords: TableDef = {
  name: 'raw_records',
  kind: 'table',
  description:
    'Every record as received, one row per account, stream, partition and key (sql/warehouse/001_bookkeeping.sql). A record fetched again keeps first_fetched_at and takes the new payload.',
  columns: [
    accountColumn,
    text('stream', 'The stream the record was read from (margin_records, futures_fills, ...).'),
    text(
      'partition',
      "The partition it was read under: marginType, productType, side:status for P2P advertisements; '' for none.",
    ),
    text(
      'key',
      "The record's key: its id (id, tradeId, orderId, advId); for a balance snapshot, the snapshot time and accountType.",
    ),
    instant('ts', "The record's own time (ts, cTime, or the snapshot time), as an instant; shown in UTC."),
    json('payload', "The record exactly as served, fields the stream's schema does not know included."),
    instant('first_fetched_at', 'When the record was first loaded.'),
    instant('last_fetched_at', 'When it was last loaded; payload is the one received then.'),
  ],
};

export const coverage: TableDef = {
  name: 'coverage',
  kind: 'table',
  description:
    "One row per window of one partition of a stream: done, or open with the cursor to resume from (sql/warehouse/001_bookkeeping.sql). A page's records and its cursor commit in one transaction.",
  columns: [
    accountColumn,
    text('stream', 'The stream read.'),
    text('partition', "The partition read, as in raw_records; '' for none."),
    instant('window_start', 'Where the window starts (inclusive).'),
    instant('window_end', 'Where it ends (exclusive): the window is [window_start, window_end).'),
    text(
      'status',
      'done; open: not read to its end yet, or reopened to be read again; unreachable: refused as older than the platform reaches (docs/history.md).',
    ),
    text(
      'cursor',
      'While open, the idLessThan the next page is asked with; NULL to read the window from its first page.',
    ),
    { name: 'pages', type: 'INTEGER', description: 'Pages read in the window, added up over runs.' },
    {
      name: 'rows',
      type: 'BIGINT',
      description: "Records of the window loaded (those inside the run's range), added up over runs.",
    },
    {
      name: 'tie_pages',
      type: 'INTEGER',
      description: 'Page breaks that fell inside a run of records sharing one millisecond (docs/extraction.md).',
    },
    text('run_id', 'The run that last wrote the row (runs.run_id).'),
    instant('updated_at', 'When the row was last written.'),
    instant(
      'earliest_reachable',
      'On a window the platform refused as older than it reaches (status unreachable): the earliest instant it answered for the partition; NULL elsewhere.',
    ),
  ],
};

export const runs: TableDef = {
  name: 'runs',
  kind: 'table',
  description:
    "One row per account per command run: its range, stage, how it ended and its extraction's counters (sql/warehouse/001_bookkeeping.sql; stage: 004_run_stages.sql).",
  columns: [
    text('run_id', "The run's id, a random UUID."),
    accountColumn,
    text('command', 'The command run, such as `run year-end`.'),
    instant('range_from', "The start of the run's range [range_from, range_to); NULL for a command without a range."),
    instant('range_to', "The end of the run's range (exclusive); NULL for a command without a range."),
    instant('started_at', 'When the run started.'),
    instant('finished_at', 'When it ended; NULL while running, or when it was killed.'),
    text('status', 'running, done, incomplete or failed.'),
    {
      name: 'exit_code',
      type: 'INTEGER',
      description: 'The exit code it ended with (docs/exit-codes.md); NULL while running.',
    },
    text('message', 'ok, or what left the run incomplete or made it fail.'),
    { name: 'requests', type: 'BIGINT', description: 'Requests its extraction sent; NULL without one.' },
    { name: 'rate_limited', type: 'BIGINT', description: 'Requests of its extraction answered 429; NULL without one.' },
    { name: 'retries', type: 'BIGINT', description: 'Requests its extraction retried; NULL without one.' },
    { name: 'records', type: 'BIGINT', description: 'Records its extraction loaded; NULL without one.' },
    text('stage', 'The stage the run is in, or ended in: extract, transform, prices or export.'),
  ],
};

export const learnedWindows: TableDef = {
  name: 'learned_windows',
  kind: 'table',
  description:
    'The narrower window ledgerpipe reads a stream of an account with, after the server refused a wider one (sql/warehouse/001_bookkeeping.sql; docs/extraction.md).',
  columns: [
    accountColumn,
    text('stream', 'The stream.'),
    { name: 'window_ms', type: 'BIGINT', description: "The window's width, in milliseconds." },
    text('reason', "The server's message refusing the wider window."),
    instant('learned_at', 'When it was learned.'),
  ],
};

export const schemaDrift: TableDef = {
  name: 'schema_drift',
  kind: 'table',
  description:
    "Fields a stream's records carry that its schema does not know (kept in the payload), or schema fields a record lacks; each recorded once (sql/warehouse/001_bookkeeping.sql).",
  columns: [
    accountColumn,
    text('stream', 'The stream.'),
    text('field', "The field's name."),
    text('kind', 'unknown: a field the schema does not know; missing: a field the schema lists that a record lacked.'),
    text(
      'sample',
      "For unknown, the field's value as JSON (its first 200 characters); for missing, the key of a record without it.",
    ),
    instant('first_seen_at', 'When it was first seen.'),
    text('run_id', 'The run that first saw it (runs.run_id).'),
  ],
};

export const quarantine: TableDef = {
  name: 'quarantine',
  kind: 'table',
  description:
    "Records that failed their stream's schema: kept here, out of raw_records, and the run ends with exit 4 (sql/warehouse/001_bookkeeping.sql).",
  columns: [
    accountColumn,
    text('stream', 'The stream.'),
    text('partition', "The partition it was read under, as in raw_records; '' for none."),
    text('key', "The record's id, or `sha256:` and a hash of the payload when it has none."),
    text(
      'payload',
      'The record as received, as JSON text; for differing copies of one id in one page, a JSON array of them.',
    ),
    text(
      'error',
      'Why it failed: each schema problem as `field: message`, or that the page held differing copies of the id.',
    ),
    instant('fetched_at', 'When it was last received.'),
    text('run_id', 'The run that last received it (runs.run_id).'),
  ],
};

export const schemaMigrations: TableDef = {
  name: 'schema_migrations',
  kind: 'table',
  description:
    'The files of sql/warehouse/ this warehouse has run: each runs once, in name order, in its own transaction with its row here (sql/load/schema_migrations.sql, src/warehouse/migrations.ts).',
  columns: [text('name', 'The file, as warehouse/<file>.sql.'), instant('applied_at', 'When it ran.')],
};

export const modelVersions: TableDef = {
  name: 'model_versions',
  kind: 'table',
  description:
    'The version of each set of rules the typed rows and the ledger were last made with, one row each (sql/warehouse/002_second_release.sql; docs/transform.md).',
  columns: [
    text(
      'name',
      "typed_at_load, type_catalog, models, opening (what openings make sure of: macros, typed tables, comments), or ledger_order (while the ledger lies in the exports' order).",
    ),
    text(
      'version',
      "A SHA-256 of the files the rules are made of, without their prose comment lines (type_catalog: sql/seeds/*.csv, whole); for ledger_order, the models' version the ledger was made whole with.",
    ),
    instant('updated_at', 'When it was last recorded.'),
  ],
};

export const pendingChanges: TableDef = {
  name: 'pending_changes',
  kind: 'table',
  description:
    'The records loaded since the last transform, and those moved back from quarantine: the next transform rebuilds their ledger rows and empties it (sql/warehouse/007_incremental.sql, 008).',
  columns: [
    accountColumn,
    text('stream', "The record's stream."),
    text('partition', "Its partition, as in raw_records; '' for none."),
    text('key', 'Its key, as in raw_records. A record noted twice is one record to the transform.'),
  ],
};

/** The bookkeeping tables, in the order docs/tables.md lists them. */
export const BOOKKEEPING_TABLES: readonly TableDef[] = [
  rawRecords,
  coverage,
  runs,
  learnedWindows,
  schemaDrift,
  quarantine,
  schemaMigrations,
  modelVersions,
  pendingChanges,
];
