/**
 * The names the pipeline's stages share, in one place: the streams ledgerpipe reads (each is a `stream` in
 * raw_records, a typed table, and what the simulator serves), the tables the transform builds, and those the
 * export writes as files. The stream definitions, the simulator, the transform and the export read these lists;
 * a stream definition whose name is not here does not compile.
 */

/** The streams read window by window and page by page, in the order they are reported. */
export const PAGED_STREAMS = [
  'margin_records',
  'futures_fills',
  'withdrawals',
  'p2p_advertisements',
  'deposits',
  'futures_tax_records',
  'spot_tax_records',
  'p2p_tax_records',
] as const;
export type PagedStream = (typeof PAGED_STREAMS)[number];

/** The streams read once per run as a snapshot. */
export const SNAPSHOT_STREAMS = ['account_balances'] as const;
export type SnapshotStream = (typeof SNAPSHOT_STREAMS)[number];
export type StreamName = PagedStream | SnapshotStream;

/** Every stream, paged ones first: the order of summaries and of `--streams` in help. */
export const STREAM_NAMES: readonly StreamName[] = [...PAGED_STREAMS, ...SNAPSHOT_STREAMS];

/**
 * The tables the transform builds (sql/staging, sql/ledger), in the order the summary lists their rows: one per
 * stream, the fills' fee entries right after the fills, and the ledger.
 */
export const TYPED_TABLES = [...PAGED_STREAMS.slice(0, 2), 'futures_fill_fees', ...PAGED_STREAMS.slice(2), ...SNAPSHOT_STREAMS, 'ledger'] as const;

/**
 * The tables `export` writes as files, each ordered by ts then `key` (README, "Output files and tables"): the
 * transforms store them in that order. futures_fills.fee_detail (the raw feeDetail JSON) stays in the
 * warehouse: every entry of it is a ledger row.
 */
export const EXPORTED_TABLES: readonly { name: (typeof TYPED_TABLES)[number]; key: string; omit?: readonly string[] }[] = [
  { name: 'margin_records', key: 'id' },
  { name: 'futures_fills', key: 'trade_id', omit: ['fee_detail'] },
  { name: 'withdrawals', key: 'order_id' },
  { name: 'ledger', key: 'entry_id' },
];
