import type { z } from 'zod';
import type { StreamTableDef } from './table.js';
import { recordSchema, type RecordCheck } from './source.js';

/**
 * Which kind of account an API key drives (docs/unified-accounts.md): `classic`, read through the v2 endpoints, or
 * `uta`, a unified trading account, read through the v3 endpoints. The platform refuses each kind's keys on the
 * other's endpoints, so every stream and snapshot part says which it is read for.
 */
export type AccountMode = 'classic' | 'uta';

/** The account modes a stream or part is read for: its `accountModes`, by default the classic accounts only. */
export const ACCOUNT_MODES_DEFAULT: readonly AccountMode[] = ['classic'];

/** Whether a stream or snapshot part is read for an account of `mode`. */
export function readFor(def: StreamDef | SnapshotPart, mode: AccountMode): boolean {
  return (def.accountModes ?? ACCOUNT_MODES_DEFAULT).includes(mode);
}

/**
 * The streams an account of `mode` reads: the paged streams of its mode, and the snapshot streams with a part of
 * its mode, each with those parts only.
 */
export function streamsOf(streams: readonly StreamDef[], mode: AccountMode): StreamDef[] {
  return streams.flatMap((s): StreamDef[] => {
    if (s.kind === 'paged') return readFor(s, mode) ? [s] : [];
    const parts = s.parts.filter((p) => readFor(p, mode));
    return parts.length === 0 ? [] : [{ ...s, parts }];
  });
}

/**
 * What an account's config says of its copy trading (docs/unified-accounts.md, "Copy trading"): the projects it
 * follows (the follower endpoints need each `projectId`, and no endpoint lists them), and whether it is a lead trader.
 */
export interface CopyTrading {
  projects: readonly string[];
  leadTrader: boolean;
}

/**
 * The streams an account reads (streamsOf), with those that need what its config says (`optIn`) kept only when it
 * says so: the copy streams with one partition per project it follows (and the snapshot parts likewise), the lead
 * trader's only for a lead trader.
 */
export function streamsForAccount(
  streams: readonly StreamDef[],
  mode: AccountMode,
  copy: CopyTrading | undefined,
): StreamDef[] {
  const projects = copy?.projects ?? [];
  return streamsOf(streams, mode).flatMap((s): StreamDef[] => {
    if (s.kind === 'paged') {
      if (s.optIn === 'leadTrader') return copy?.leadTrader === true ? [s] : [];
      if (s.optIn === 'copyProjects')
        return projects.length === 0
          ? []
          : [
              {
                ...s,
                partitions: projects.map((id) => ({ name: id, params: { projectId: id }, accountType: 'copy' })),
              },
            ];
      return [s];
    }
    const parts = s.parts.flatMap((p): SnapshotPart[] =>
      p.optIn !== 'copyProjects'
        ? [p]
        : projects.map((id) => ({ ...p, name: p.name, params: { ...p.params, projectId: id }, keyOf: () => id })),
    );
    return parts.length === 0 ? [] : [{ ...s, parts }];
  });
}

/** A value of a request parameter that selects one partition of a stream, e.g. `{ marginType: 'isolated' }`. */
export interface PartitionDef {
  /** Stored in every row's `partition` column: the marginType, productType, or '' for none. */
  name: string;
  params: Readonly<Record<string, string>>;
  /**
   * The endpoint of this partition when it is not the stream's own (`path`), with its own rate and page reader:
   * a stream whose partitions are one ledger served by sibling endpoints (uta_financial_records: the unified
   * account's categories and the funding account).
   */
  endpoint?: { path: string; ratePerSecond: number; readPage(data: unknown): PageRead };
  /**
   * The account type whose balance its records move (docs/completeness.md, "Balances"): a span of that account type is
   * covered by the ledger when every partition of this account type is. Absent: its records move no balance.
   */
  accountType?: string;
}

/** The futures product types, each a partition whose records move the account type of its name (usdt_futures, ...). */
export const FUTURES_PARTITIONS: readonly PartitionDef[] = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'].map(
  (name) => ({
    name,
    params: { productType: name },
    accountType: `${name.split('-')[0]?.toLowerCase() ?? ''}_futures`,
  }),
);

/** One answer's records, and the cursor to pass for the next page (idLessThan, or the stream's cursor parameter). */
export interface PageRead {
  records: unknown[];
  cursor: string | undefined;
}

/** A record stream read window by window and page by page (docs/files.md). */
export interface PagedStreamDef<Name extends string = string> {
  kind: 'paged';
  name: Name;
  path: string;
  partitions: readonly PartitionDef[];
  /** Widest window the endpoint accepts, per the spec; narrowed at run time when the server says so. */
  maxWindowDays: number;
  /** Largest page the endpoint serves. */
  pageLimit: number;
  /** Requests per second per API key (docs/platform.md, "Windows, pages and rates"). */
  ratePerSecond: number;
  /**
   * Its records carry acquisitions and disposals (trades, conversions, deposits, withdrawals, income): a run that
   * computes gains reads it back to the account's opening, not only over its range (docs/history.md). The futures
   * streams are read over the range only: their windows are narrow, and what they move is the margin coin's
   * profit, loss, fees and funding of their own year.
   */
  carriesLots?: boolean;
  /**
   * How many days before the platform's present its docs say its records reach ("Data query range: 366 days", "within
   * the last 90 days"): where no opening is known (a unified account), a stream that carries lots is read back that
   * far.
   */
  reachDays?: number;
  /** The account modes it is read for (default: classic only). */
  accountModes?: readonly AccountMode[];
  /**
   * Read only where the account's config says (streamsForAccount): `copyProjects`, one partition per copy-trading
   * project it follows (its `partitions` are then none); `leadTrader`, for a lead trader only.
   */
  optIn?: 'copyProjects' | 'leadTrader';
  /**
   * The endpoint takes no time range (it lists everything, page by page): no startTime or endTime is sent, and a
   * window whose records all lie outside it is no sign of misread times. Its windows are as wide as a run's range.
   */
  windowless?: boolean;
  /** The record's key where no one field identifies it (records without an id); default: the keyField's value. */
  keyOf?(record: Record<string, unknown>): string;
  /**
   * Refusals that mean the account has no such records (a follower asking for a lead trader's shares): the window is
   * read, empty, instead of failing the stream.
   */
  emptyWhen?(error: { httpStatus: number; platformCode: string }): boolean;
  /**
   * How the next page is asked for (default `{ param: 'idLessThan', descending: true }`): the parameter that carries
   * the cursor, and whether the cursor is a record id that falls page by page (checked to, so a stuck cursor stops
   * the window) or a token the platform hands out (checked only to change).
   */
  cursor?: { param: string; descending: boolean };
  /**
   * The record schema: known fields checked, unknown fields kept. Made by defineStream from the table's columns (each
   * with its field and check) and the stream's recordChecks.
   */
  schema: z.ZodObject;
  /** The field that identifies a record (deduplication and the raw key). */
  keyField: string;
  /** Schema fields whose absence is normal (not reported as drift), e.g. `marginCoin` on older fills. */
  optionalFields?: readonly string[];
  /** The record's time in Unix ms, which windows filter on. */
  time(record: Record<string, unknown>): number;
  /** Reads one answer's `data`; throws on a shape it does not know. */
  readPage(data: unknown): PageRead;
  /** What the warehouse holds of it: its table's columns and keys (src/streams/table.ts). */
  table: StreamTableDef;
}

/**
 * One endpoint of a snapshot stream: what it asks and where its rows are filed. account_balances has one part;
 * asset_balances one per account type, each its own endpoint (docs/platform.md, "Balances").
 */
export interface SnapshotPart {
  /** The partition its rows are filed under: '' when the stream has one part, else the account type. */
  name: string;
  path: string;
  params: Readonly<Record<string, string>>;
  /** Requests per second per API key. */
  ratePerSecond: number;
  /** Reads one answer's `data` into records; throws on a shape it does not know. */
  readPage(data: unknown): unknown[];
  /** The record's key inside its snapshot and part; default: the stream's keyField. */
  keyOf?(record: Record<string, unknown>): string;
  /** The account modes it is read for (default: classic only). */
  accountModes?: readonly AccountMode[];
  /** Asked once per copy-trading project the account follows, with its projectId (streamsForAccount). */
  optIn?: 'copyProjects';
}

/** A stream read once per run as a snapshot (balances): each part once, all under one snapshot time. */
export interface SnapshotStreamDef<Name extends string = string> {
  kind: 'snapshot';
  name: Name;
  parts: readonly SnapshotPart[];
  /** The account modes it is read for (default: classic only); each part says its own too. */
  accountModes?: readonly AccountMode[];
  schema: z.ZodObject;
  keyField: string;
  /** Schema fields whose absence is normal (not reported as drift); `every`: each part serves fields of its own. */
  optionalFields?: readonly string[] | 'every';
  /**
   * Whether a refusal means this key cannot read a part (no permission, no such endpoint): the part is recorded
   * as unavailable and the run goes on. Without it, every refusal fails the stream.
   */
  unavailable?(error: { httpStatus: number; platformCode: string }): boolean;
  table: StreamTableDef;
}

export type StreamDef = PagedStreamDef | SnapshotStreamDef;

/** The stream as one part's records are checked: keyed by the part's own key when it has one. */
export function partKeyed(
  stream: SnapshotStreamDef,
  part: SnapshotPart,
): SnapshotStreamDef & { keyOf?: (record: Record<string, unknown>) => string } {
  return part.keyOf === undefined ? stream : { ...stream, keyOf: part.keyOf };
}

/** A stream as its file declares it: without its schema and its records' time, which are made from its columns. */
export type StreamDeclaration =
  | (Omit<PagedStreamDef, 'schema' | 'time'> & { recordChecks?: readonly RecordCheck[]; time?: PagedStreamDef['time'] })
  | (Omit<SnapshotStreamDef, 'schema'> & { recordChecks?: readonly RecordCheck[] });

/** What defineStream adds to a declaration: the record schema, and a paged stream's records' time. */
type Made<T extends StreamDeclaration> = T & { schema: z.ZodObject } & (T extends { kind: 'paged' }
    ? { time: PagedStreamDef['time'] }
    : unknown);

/**
 * A paged stream's record time, from the source of its table's `ts` (`tsColumn('cTime', ...)`): the first of its fields
 * the record has, as a number of Unix milliseconds.
 */
function recordTime(def: StreamTableDef): PagedStreamDef['time'] {
  const source = def.columns.find((c) => c.name === 'ts')?.from;
  if (source?.kind !== 'time') {
    throw new Error(`${def.name}: its ts column says not which field holds the record's time (tsColumn)`);
  }
  const fields = source.fields.map((f) => f.name);
  return (record) => Number(fields.reduce<unknown>((found, f) => found ?? record[f], undefined));
}

/**
 * Declares a stream: its definition, with the record schema made from its table's columns (each column's field and
 * check, src/streams/source.ts) and its `recordChecks`, the checks of a whole record; a paged stream's records' time
 * from its `ts` column's field.
 *
 * @example
 * export const withdrawals = defineStream({ kind: 'paged', name: 'withdrawals', path: '/api/v2/spot/wallet/withdrawal-records', ... });
 */
export function defineStream<const T extends StreamDeclaration>(def: T): Made<T> {
  const schema = recordSchema(def.table.columns, def.recordChecks);
  const made =
    def.kind === 'snapshot' ? { ...def, schema } : { ...def, schema, time: def.time ?? recordTime(def.table) };
  return made as unknown as Made<T>;
}

/**
 * The page reader of endpoints that answer a flat array, newest first, and page with idLessThan = the last
 * record's key (margin records, withdrawals, deposits, the tax records).
 */
export function flatArrayPage(keyField: string): (data: unknown) => PageRead {
  return (data) => {
    if (data !== null && data !== undefined && !Array.isArray(data))
      throw new TypeError(`expected an array of records, got ${typeof data}`);
    const records = (data ?? []) as unknown[];
    const last = records.at(-1) as Record<string, unknown> | undefined;
    return { records, cursor: last === undefined ? undefined : String(last[keyField]) };
  };
}
