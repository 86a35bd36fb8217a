import { ExtractError } from '../errors/extract-error.js';
import { PlatformError } from '../errors/platform-error.js';
import { TransportError } from '../errors/transport-error.js';
import type { SignedClient } from '../http/client.js';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from '../http/retry.js';
import {
  partKeyed,
  streamsForAccount,
  type AccountMode,
  type CopyTrading,
  type PageRead,
  type PagedStreamDef,
  type SnapshotPart,
  type SnapshotStreamDef,
  type StreamDef,
} from '../streams/stream.js';
import { planWindows, type Window } from '../time/window.js';
import { silentLogger, type Logger } from '../util/logger.js';
import { runPool } from '../util/work-pool.js';
import { markEarliestReachable, readCoverage, readLearnedWindow } from '../reads/coverage.js';
import { createRawWriter, type RawWriter } from '../load/raw-writer.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { ACCOUNT_INFO, accountOpening, readRegisTime } from './account-opening.js';
import { ACCOUNT_SETTINGS, accountMode, readAccountModeField } from './account-mode.js';
import type { RecordedMode } from '../reads/account-modes.js';
import { STREAMS } from '../streams/index.js';
import { createFetcher } from './fetcher.js';
import { underBudget } from './ip-budget.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { checkRecords } from './records.js';
import { emptyStreamStats, totalStats, type StreamStats } from './stats.js';
import { planTasks } from './tasks.js';
import { readWindow, type StreamReading } from './window-reader.js';
import { firstCause } from '../errors/first-cause.js';

const DAY_MS = 86_400_000;
/** A range that ends no earlier than this before this machine's now is read up to the platform's present. */
const NOW_TOLERANCE_MS = 60_000;

export interface ExtractOptions {
  warehouse: Warehouse;
  client: SignedClient;
  account: string;
  runId: string;
  streams: readonly StreamDef[];
  /** The range, Unix ms, half-open. */
  from: number;
  to: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Multiplies every rate limit: only for a simulator started with the same `--rate-scale`. */
  rateScale?: number;
  /** Windows of one endpoint in flight at once (default 4); the endpoint's limiter paces them all. */
  concurrency?: number;
  log?: Logger;
  /**
   * Told after every committed page, with the window its records lie in when it held any (none for a snapshot):
   * the prices read beside the extraction look there for the assets the records move (docs/values.md).
   */
  onProgress?: (stream: string, stats: StreamStats, window?: Window) => void;
  /**
   * Limiters by endpoint path, shared by every extraction made with one API key in one run, so that a second
   * extraction right after a first (nightly's re-reads) does not start with an empty window. Filled as needed.
   */
  limiters?: Map<string, RateLimiter>;
  /** The process's budget for the platform's address (ip-budget.ts): every request waits for it too. */
  ipLimiter?: RateLimiter;
  /**
   * Ranges to read again although covered (the nightly look-back, windows with pending withdrawals): done
   * windows inside them are forgotten before planning, so they are planned and read afresh.
   */
  refresh?: readonly Window[];
  /**
   * Read the streams that carry lots (carriesLots) back to this instant, or to the account's opening, for the
   * cost basis (docs/history.md); the other streams read the range only.
   */
  history?: { from: number | 'opening' };
  /**
   * The account's mode (docs/unified-accounts.md), when known beforehand; else asked of the platform
   * (GET /api/v3/account/settings) and recorded. Only the streams and snapshot parts of its mode are read.
   */
  accountMode?: AccountMode;
  /** What the account's config says of its copy trading: the copy streams' partitions, and the lead trader's stream. */
  copyTrading?: CopyTrading;
}

/** A stream that could not be read to its end: the platform refused it or kept failing; the others went on. */
export interface StreamFailure {
  stream: string;
  /** The error's one line (the platform's message included, secrets taken out). */
  message: string;
  code: string;
}

export interface ExtractResult {
  streams: Record<string, StreamStats>;
  total: StreamStats;
  /** Streams left unread: their windows stay gaps, and the run is incomplete. */
  failures: StreamFailure[];
  /** Where reading stopped: the range's end, or the platform's present when that came first (Unix ms). */
  to: number;
  /** The platform's present as the records began to be read: its clock, measured first (Unix ms). */
  present: number;
  /** The account's mode, and the streams this run read for it. */
  accountMode: AccountMode;
}

/**
 * Whether a failure concerns its own stream only, so the other streams go on: the platform refused its requests
 * (a parameter, a window) or kept failing, or answered something its windows cannot be read from (a cursor
 * that does not end). Refused credentials, a warehouse that cannot be written, and anything unforeseen stop
 * the whole extraction.
 */
function stopsOnlyItsStream(error: unknown): boolean {
  if (error instanceof PlatformError) return error.exit !== 'auth';
  return error instanceof TransportError || error instanceof ExtractError;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Extracts every record of `[from, to)` for each stream into `raw_records`, exactly once, as fast as the
 * rate limits allow: all streams at once, each endpoint at its own pace, windows of one endpoint side by
 * side. Windows covered by an earlier run are skipped and an unfinished one resumes at its cursor. The range
 * ends at the platform's present at the latest (its clock, measured first).
 *
 * @example
 * const result = await extract({ warehouse, client, account: 'default', runId, streams: STREAMS, from, to });
 */
export async function extract(options: ExtractOptions): Promise<ExtractResult> {
  const clock = options.clock ?? Date.now;
  // The time request counts against the IP budget like every other.
  const syncTime = async (): Promise<number> => {
    await options.ipLimiter?.acquire();
    return options.client.syncTime();
  };
  const retryDeps = { sleep: options.sleep ?? defaultSleep, random: options.random ?? Math.random, syncTime };
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const log = options.log ?? silentLogger;
  // The clock offset first: a machine minutes off would have every signed request refused (40008).
  const offset = await clockOffset(syncTime, policy, retryDeps, log);
  const writer = await createRawWriter(options.warehouse, { account: options.account, runId: options.runId, clock });
  const base = { ...options, clock, retryDeps, policy, log, writer };
  // A key reads the streams of its account's kind only: the platform refuses each kind's keys on the other's endpoints.
  const mode = options.accountMode ?? (await findMode(base)).mode;
  const streams = streamsForAccount(options.streams, mode, options.copyTrading);
  logSkipped(options, streams, mode, log);
  const stats: Record<string, StreamStats> = Object.fromEntries(streams.map((s) => [s.name, emptyStreamStats()]));
  // The snapshots first, at the platform's present, then the records up to a present measured after them: the
  // records read then cover the moment of each snapshot (docs/completeness.md, "Holdings").
  const takenAt = Math.floor(clock() + offset);
  const snapshots = streams.filter((s): s is SnapshotStreamDef => s.kind === 'snapshot');
  const snapshotOutcomes = await Promise.allSettled(
    snapshots.map((stream) => extractSnapshot(stream, stats[stream.name] as StreamStats, { ...base, takenAt })),
  );
  // Nothing is read, or marked covered, past the platform's present: a record of a later instant does not exist
  // yet, and a window closed over it would be skipped by the run that could read it. A range that ends at this
  // machine's now (a nightly) means the platform's: clocks differ.
  const present = Math.floor(clock() + offset);
  const to = readingEnd(options, clock(), present);
  if (to < options.to) {
    log.info(
      `the range ends after the platform's present: reading up to ${new Date(to).toISOString()}; a later run reads the rest`,
    );
  }
  // A unified account's opening is not asked: the account-info endpoint is a classic one (docs/unified-accounts.md).
  const byReach = options.history?.from === 'opening' && mode === 'uta';
  const history =
    options.history === undefined
      ? undefined
      : byReach
        ? unifiedHistory(options.from, streams, present)
        : await historyStart(options.history.from, { ...base, to });
  const paged = streams.filter((s): s is PagedStreamDef => s.kind === 'paged');
  const pagedOutcomes = await Promise.allSettled(
    paged.map((stream) =>
      extractPaged(stream, stats[stream.name] as StreamStats, {
        ...base,
        from: pagedFrom(stream, options.from, { history, byReach, present }),
        to,
        historyEnd: options.from,
      }),
    ),
  );
  // In the streams' order, as the failures are reported.
  const settled = streams.map((s) => outcomeOf(s, { snapshots, snapshotOutcomes, paged, pagedOutcomes }));
  const failures = streamFailures(streams, settled, log);
  return { streams: stats, total: totalStats(stats), failures, to, present, accountMode: mode };
}

/** The platform's clock less this machine's (ms), asked up to three times. */
async function clockOffset(
  syncTime: () => Promise<number>,
  policy: RetryPolicy,
  retryDeps: Context['retryDeps'],
  log: Logger,
): Promise<number> {
  const offset = await withRetry(
    syncTime,
    { ...policy, maxAttempts: Math.min(policy.maxAttempts, 3) },
    retryDeps,
    'GET /api/v2/public/time',
  );
  log.debug('clock synced', { offsetMs: Math.round(offset) });
  return offset;
}

/** How a stream's extraction ended, from the outcomes of the snapshots' and the paged streams' in their lists. */
function outcomeOf(
  stream: StreamDef,
  outcomes: {
    snapshots: readonly StreamDef[];
    snapshotOutcomes: readonly PromiseSettledResult<void>[];
    paged: readonly StreamDef[];
    pagedOutcomes: readonly PromiseSettledResult<void>[];
  },
): PromiseSettledResult<void> {
  return (
    stream.kind === 'snapshot'
      ? outcomes.snapshotOutcomes[outcomes.snapshots.indexOf(stream)]
      : outcomes.pagedOutcomes[outcomes.paged.indexOf(stream)]
  ) as PromiseSettledResult<void>;
}

/** Tells which of the streams asked (--streams) the account's kind does not read. */
function logSkipped(options: ExtractOptions, streams: readonly StreamDef[], mode: AccountMode, log: Logger): void {
  const skipped = options.streams.filter((s) => !streams.some((t) => t.name === s.name)).map((s) => s.name);
  if (skipped.length === 0 || options.streams.length >= STREAM_COUNT_ALL) return;
  log.info(
    `${options.account}: ${skipped.join(', ')} not read: ${mode === 'uta' ? 'a unified account has no such records' : 'for unified accounts only'} (docs/unified-accounts.md)`,
  );
}

/**
 * Where reading stops: a range that ends at this machine's `now` (a nightly) at the platform's present, any other
 * at its end or the platform's present, whichever comes first; never before the range's start.
 */
function readingEnd(range: { from: number; to: number }, now: number, present: number): number {
  return range.to >= now - NOW_TOLERANCE_MS
    ? Math.max(range.from, present)
    : Math.max(range.from, Math.min(range.to, present));
}

/**
 * Where a paged stream starts reading: the range's start, or earlier for a stream that carries lots when the
 * history is read (to its start, or without an opening as far back as the docs say the stream's records reach).
 */
function pagedFrom(
  stream: PagedStreamDef,
  from: number,
  reading: { history: number | undefined; byReach: boolean; present: number },
): number {
  if (stream.carriesLots !== true || reading.history === undefined) return from;
  // Without an opening, as far back as the docs say the stream's records reach.
  if (reading.byReach)
    return Math.min(from, stream.reachDays === undefined ? from : reading.present - stream.reachDays * DAY_MS);
  return Math.min(from, reading.history);
}

/**
 * The streams that could not be read to their end, each logged, in the streams' order; a failure that stops the
 * whole extraction (stopsOnlyItsStream) is thrown instead, the first by its cause.
 */
function streamFailures(
  streams: readonly StreamDef[],
  settled: readonly PromiseSettledResult<void>[],
  log: Logger,
): StreamFailure[] {
  const failures: StreamFailure[] = [];
  const fatal = firstCause(
    settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected' && !stopsOnlyItsStream(s.reason)),
  );
  if (fatal !== undefined) throw fatal.reason;
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') continue;
    const error = outcome.reason as Error & { code: string };
    const stream = (streams[i] as StreamDef).name;
    log.error(`${stream} could not be read to its end, the other streams go on: ${error.message}`, { stream });
    failures.push({ stream, message: error.message, code: error.code });
  }
  return failures;
}

/** How many streams there are: a run that names fewer (--streams) is told which of them its account's kind skips. */
const STREAM_COUNT_ALL = STREAMS.length;

/** The account's mode, asked of the platform once per run (account-mode.ts) and recorded. */
async function findMode(context: Context): Promise<RecordedMode> {
  // Three attempts, as for the clock: an answer that cannot be read leaves the account classic, it stops nothing.
  const policy = { ...context.policy, maxAttempts: Math.min(context.policy.maxAttempts, 3) };
  const fetch = createFetcher(ACCOUNT_SETTINGS.path, readAccountModeField, {
    client: context.client,
    limiter: limiterFor(ACCOUNT_SETTINGS, context),
    policy,
    retryDeps: context.retryDeps,
    stats: emptyStreamStats(),
  });
  return accountMode({
    warehouse: context.warehouse,
    account: context.account,
    fetch: () => fetch({}),
    now: context.clock,
    log: context.log,
  });
}

/**
 * The history of a unified account (docs/unified-accounts.md): the platform has no registration time for it that a
 * unified key may read, so each stream that carries lots is read as far back as its docs say its records reach
 * (`reachDays`); the earliest of those is where its history starts.
 */
function unifiedHistory(from: number, streams: readonly StreamDef[], present: number): number {
  const reaches = streams.flatMap((s) =>
    s.kind === 'paged' && s.carriesLots === true && s.reachDays !== undefined ? [present - s.reachDays * DAY_MS] : [],
  );
  return Math.min(from, ...reaches);
}

/**
 * Where the streams that carry lots start (docs/history.md): the instant given (--history-from), or the account's
 * opening, asked of the platform once (accountOpening); the range's start when the opening is not known.
 */
async function historyStart(from: number | 'opening', context: Context): Promise<number> {
  if (from !== 'opening') return from;
  // Three attempts, as for the clock: an answer that cannot be read leaves the opening unknown, it stops nothing.
  const policy = { ...context.policy, maxAttempts: Math.min(context.policy.maxAttempts, 3) };
  const fetch = createFetcher(ACCOUNT_INFO.path, readRegisTime, {
    client: context.client,
    limiter: limiterFor(ACCOUNT_INFO, context),
    policy,
    retryDeps: context.retryDeps,
    stats: emptyStreamStats(),
  });
  const opening = await accountOpening({
    warehouse: context.warehouse,
    account: context.account,
    fetch: () => fetch({}),
    now: context.clock,
    log: context.log,
  });
  return 'at' in opening ? opening.at : context.from;
}

type Context = ExtractOptions & {
  /** The run's own range's start: a stream that carries lots reads the history before it too (docs/history.md). */
  historyEnd?: number;
  clock: () => number;
  retryDeps: { sleep: (ms: number) => Promise<void>; random: () => number; syncTime: () => Promise<unknown> };
  policy: RetryPolicy;
  log: Logger;
  writer: RawWriter;
};

/** The endpoint's limiter: from `limiters` when given (shared by every extraction of one API key), else new. */
function limiterFor(endpoint: { path: string; ratePerSecond: number }, context: Context): RateLimiter {
  const existing = context.limiters?.get(endpoint.path);
  if (existing !== undefined) return existing;
  const make = () =>
    createRateLimiter({
      perSecond: endpoint.ratePerSecond * (context.rateScale ?? 1),
      clock: context.clock,
      sleep: context.retryDeps.sleep,
    });
  const limiter = context.ipLimiter === undefined ? make() : underBudget(make(), context.ipLimiter);
  context.limiters?.set(endpoint.path, limiter);
  return limiter;
}

/** Per partition, the latest start of a done window of the stream: where the platform answered before this run. */
async function answeredWindows(
  warehouse: Warehouse,
  account: string,
  stream: PagedStreamDef,
): Promise<Map<string, number>> {
  const coverage = await warehouse.exclusive((c) => readCoverage(c, account, stream.name));
  const out = new Map<string, number>();
  for (const r of coverage)
    if (r.status === 'done') out.set(r.partition, Math.max(out.get(r.partition) ?? -Infinity, r.window.start));
  return out;
}

/**
 * The page reader of each partition of a stream: the stream's endpoint, or the partition's own (with its own
 * limiter) where it has one.
 */
function partitionFetcher(
  stream: PagedStreamDef,
  stats: StreamStats,
  context: Context,
): (partition: string, params: Readonly<Record<string, string | undefined>>) => Promise<PageRead> {
  const deps = { client: context.client, policy: context.policy, retryDeps: context.retryDeps, stats };
  const own = createFetcher(stream.path, stream.readPage, { ...deps, limiter: limiterFor(stream, context) });
  const byPartition = new Map(
    stream.partitions.flatMap((p) =>
      p.endpoint === undefined
        ? []
        : [
            [
              p.name,
              createFetcher(p.endpoint.path, p.endpoint.readPage, {
                ...deps,
                limiter: limiterFor(p.endpoint, context),
              }),
            ] as const,
          ],
    ),
  );
  return (partition, params) => (byPartition.get(partition) ?? own)(params);
}

/** Reads every window of one paged stream still to read, `concurrency` at a time, paced by its limiter. */
async function extractPaged(stream: PagedStreamDef, stats: StreamStats, context: Context): Promise<void> {
  const learned = await context.warehouse.exclusive((c) => readLearnedWindow(c, context.account, stream.name));
  const reading: StreamReading = {
    stream,
    account: context.account,
    warehouse: context.warehouse,
    writer: context.writer,
    log: context.log,
    clock: context.clock,
    range: { start: context.from, end: context.to },
    stats,
    fetchPage: partitionFetcher(stream, stats, context),
    seenFields: new Set(),
    windowMs: Math.min(stream.maxWindowDays * DAY_MS, learned ?? Infinity),
    historyEnd: context.historyEnd ?? context.from,
    refusedBefore: new Map(),
    answeredFrom: await answeredWindows(context.warehouse, context.account, stream),
    onProgress: context.onProgress,
  };
  const tasks = await planTasks(stream, reading.windowMs, context, stats);
  stats.windowsPlanned = tasks.length;
  // On a failure, the other windows finish the page in hand and stop: what is committed stays, nothing more starts.
  await runPool(tasks, { concurrency: context.concurrency ?? 4 }, async (task) => {
    if (task.window.end - task.window.start > reading.windowMs && task.cursor === undefined) {
      // A window planned before the server taught a narrower one: split it and read the parts.
      const parts = planWindows(task.window.start, task.window.end, reading.windowMs).map((window) => ({
        ...task,
        window,
      }));
      stats.windowsPlanned += parts.length - 1;
      return parts;
    }
    const replacements = await readWindow(reading, task);
    stats.windowsPlanned += Math.max(0, replacements.length - 1);
    return replacements;
  });
  // Also where a run killed after recording unreachable windows left them unmarked.
  await context.warehouse.transaction((c) => markEarliestReachable(c, context.account, stream.name));
}

/**
 * Reads every part of a snapshot stream (one endpoint each) and files their records under one snapshot time, the
 * server's present when they were asked, so two machines' snapshots of one moment agree. A part the key may not read
 * (the stream's `unavailable` says which refusals mean that) is filed as one marker record, `{"ledgerpipeUnavailable":
 * why}` (docs/completeness.md, "Balances"), and the others go on; any other failure fails the stream.
 */
async function extractSnapshot(
  stream: SnapshotStreamDef,
  stats: StreamStats,
  context: Context & { takenAt: number },
): Promise<void> {
  const answers = await Promise.all(stream.parts.map((part) => readPart(stream, part, stats, context)));
  const { takenAt } = context;
  await Promise.all(
    stream.parts.map(async (part, i) => {
      const answer = answers[i] as PartAnswer;
      const checked =
        'unavailable' in answer
          ? {
              load: [
                {
                  key: `${takenAt}:unavailable`,
                  ts: takenAt,
                  payload: JSON.stringify({ ledgerpipeUnavailable: answer.unavailable }),
                },
              ],
              drift: [],
              quarantine: [],
            }
          : checkRecords(partKeyed(stream, part), answer.records, {
              time: () => takenAt,
              keyPrefix: `${takenAt}:`,
              seenFields: new Set(),
            });
      await context.writer.commit({
        stream: stream.name,
        partition: part.name,
        records: checked.load,
        cursor: null,
        done: true,
        tie: false,
        drift: checked.drift,
        quarantine: checked.quarantine,
      });
      stats.pages++;
      stats.records += checked.load.length;
      stats.quarantined += checked.quarantine.length;
    }),
  );
  context.onProgress?.(stream.name, stats);
}

type PartAnswer = { records: unknown[] } | { unavailable: string };

async function readPart(
  stream: SnapshotStreamDef,
  part: SnapshotPart,
  stats: StreamStats,
  context: Context,
): Promise<PartAnswer> {
  const fetch = createFetcher(part.path, part.readPage, {
    client: context.client,
    limiter: limiterFor(part, context),
    policy: context.policy,
    retryDeps: context.retryDeps,
    stats,
  });
  try {
    return { records: await fetch(part.params) };
  } catch (error) {
    if (!(error instanceof PlatformError) || stream.unavailable?.(error) !== true) throw error;
    context.log.warn(
      `${stream.name} ${part.name}: GET ${part.path} is not readable with this key (HTTP ${error.httpStatus}, code ${error.platformCode}); recorded as unavailable`,
    );
    return { unavailable: `HTTP ${error.httpStatus}, code ${error.platformCode} "${error.platformMessage}"` };
  }
}
