import { PAGED_STREAMS, type PagedStream, type StreamName } from '../../streams/manifest.js';

/** The record streams the simulator serves: ledgerpipe's own (src/streams/manifest.ts). */
export { PAGED_STREAMS, type PagedStream, type StreamName };

export type Payload = Record<string, unknown>;

/** One generated record. */
export interface SimRecord {
  /** The record's time in Unix ms: what startTime/endTime filter on. */
  ts: number;
  /** The id that idLessThan pages on (numeric string); ids grow with ts inside a partition. */
  id: string;
  /** The payload as served once final (and as written to `--truth`). */
  record: Payload;
  /** For a withdrawal whose status moves while the simulator runs: the payload served before the move. */
  before?: Payload;
}

/** One partition of a stream (a marginType, a productType, or '' for none), records newest first. */
export interface Partition {
  name: string;
  records: SimRecord[];
}

export interface Dataset {
  from: number;
  to: number;
  streams: Record<PagedStream, Partition[]>;
  balances: Payload[];
}

export interface GenerateOptions {
  seed: string;
  /** Start of the range, Unix ms (inclusive). */
  from: number;
  /** End of the range, Unix ms (exclusive). */
  to: number;
  /** Scale: the number of futures fills in the range; other streams are sized from it. */
  records: number;
  /** The margin window the simulator enforces, so records also sit on its seams. */
  marginWindowDays: number;
}

export const DAY_MS = 86_400_000;
