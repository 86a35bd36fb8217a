import { STREAMS } from './index.js';
import type { PagedStreamDef, SnapshotStreamDef } from './stream.js';

/**
 * The names of the streams, derived from their definitions (src/streams/index.ts): each is a `stream` in
 * raw_records, a table in the warehouse, and what the simulator serves. A name that is not a stream's does not
 * compile where these types are asked for.
 */
type Defined = (typeof STREAMS)[number];
export type PagedStream = Extract<Defined, { kind: 'paged' }>['name'];
export type SnapshotStream = Extract<Defined, { kind: 'snapshot' }>['name'];
export type StreamName = PagedStream | SnapshotStream;
/** The paged streams read for unified accounts only (docs/unified-accounts.md). */
export type UtaOnlyStream = Extract<Defined, { kind: 'paged'; accountModes: readonly ['uta'] }>['name'];
/** The paged streams read only where an account's config asks for them (copy trading). */
export type OptInStream = Extract<Defined, { kind: 'paged'; optIn: string }>['name'];

const isPaged = (s: Defined): s is Extract<Defined, PagedStreamDef> => s.kind === 'paged';
const isSnapshot = (s: Defined): s is Extract<Defined, SnapshotStreamDef> => s.kind === 'snapshot';

/** The streams read window by window and page by page, in the order they are reported. */
export const PAGED_STREAMS: readonly PagedStream[] = STREAMS.filter(isPaged).map((s) => s.name);

/** The streams read once per run as a snapshot. */
export const SNAPSHOT_STREAMS: readonly SnapshotStream[] = STREAMS.filter(isSnapshot).map((s) => s.name);

/** Every stream, paged ones first: the order of summaries and of `--streams` in help. */
export const STREAM_NAMES: readonly StreamName[] = [...PAGED_STREAMS, ...SNAPSHOT_STREAMS];
