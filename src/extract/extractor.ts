import { ExtractError } from '../errors/extract-error.js';
import { PlatformError } from '../errors/platform-error.js';
import { TransportError } from '../errors/transport-error.js';
import type { SignedClient } from '../http/client.js';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from '../http/retry.js';
import { silentLogger, type Logger } from '../util/logger.js';
import type { PagedStreamDef, SnapshotStreamDef, StreamDef } from '../streams/stream.js';
import { compareIds } from '../util/ids.js';
import { runPool } from '../util/work-pool.js';
import { dropWindow, readCoverage, readLearnedWindow, saveLearnedWindow } from '../warehouse/coverage.js';
import { createRawWriter, type PageCommit, type RawWriter } from '../warehouse/raw-writer.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { checkRecords } from './records.js';
import { createFetcher } from './fetcher.js';
import { narrowedWindowMs, tooManyRecords } from './narrowing.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { emptyStreamStats, totalStats, type StreamStats } from './stats.js';
import { planWindows, uncovered, windowParams, type Window } from '../time/window.js';

const DAY_MS = 86_400_000;
/** Pages of one window fetched but not yet committed, at most. */
const PAGES_AHEAD = 8;
/** Below this the server is not narrowing a window but refusing the endpoint: stop and say so. */
const MIN_WINDOW_MS = 60_000;
/**
 * Records one window may return before its paging is taken for broken: 2.5 times the 20,000 the live service
 * serves for one query before it refuses with 40303 (README, "How extraction works"). A cursor that moves on
 * forever would otherwise read without end.
 */
export const MAX_WINDOW_RECORDS = 50_000;

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
  /** Told after every committed page. */
  onProgress?: (stream: string, stats: StreamStats) => void;
  /**
   * Limiters by endpoint path, shared by every extraction made with one API key in one run, so that a second
   * extraction right after a first (nightly's re-reads) does not start with an empty window. Filled as needed.
   */
  limiters?: Map<string, RateLimiter>;
  /**
   * Ranges to read again although covered (the nightly look-back, windows with pending withdrawals): done
   * windows inside them are forgotten before planning, so they are planned and read afresh.
   */
  refresh?: readonly Window[];
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

interface Task {
  partition: string;
  params: Readonly<Record<string, string>>;
  window: Window;
  cursor?: string;
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
  const retryDeps = {
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    syncTime: () => options.client.syncTime(),
  };
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const log = options.log ?? silentLogger;
  // The clock offset first: a machine minutes off would have every signed request refused (40008).
  const offset = await withRetry(() => options.client.syncTime(), { ...policy, maxAttempts: Math.min(policy.maxAttempts, 3) }, retryDeps, 'GET /api/v2/public/time');
  log.debug('clock synced', { offsetMs: Math.round(offset) });
  // Nothing is read, or marked covered, past the platform's present: a record of a later instant does not exist
  // yet, and a window closed over it would be skipped by the run that could read it.
  const present = Math.floor(clock() + offset);
  const to = Math.max(options.from, Math.min(options.to, present));
  if (to < options.to) {
    log.info(`the range ends after the platform's present: reading up to ${new Date(to).toISOString()}; a later run reads the rest`);
  }
  const writer = await createRawWriter(options.warehouse, { account: options.account, runId: options.runId, clock });
  const stats: Record<string, StreamStats> = Object.fromEntries(options.streams.map((s) => [s.name, emptyStreamStats()]));
  const context = { ...options, to, clock, retryDeps, policy, log, writer };
  const settled = await Promise.allSettled(
    options.streams.map((stream) =>
      stream.kind === 'paged' ? extractPaged(stream, stats[stream.name] as StreamStats, context) : extractSnapshot(stream, stats[stream.name] as StreamStats, context),
    ),
  );
  const failures: StreamFailure[] = [];
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') continue;
    if (!stopsOnlyItsStream(outcome.reason)) throw outcome.reason;
    const error = outcome.reason as Error & { code: string };
    const stream = (options.streams[i] as StreamDef).name;
    log.error(`${stream} could not be read to its end, the other streams go on: ${error.message}`, { stream });
    failures.push({ stream, message: error.message, code: error.code });
  }
  return { streams: stats, total: totalStats(stats), failures };
}

type Context = ExtractOptions & {
  clock: () => number;
  retryDeps: { sleep: (ms: number) => Promise<void>; random: () => number; syncTime: () => Promise<unknown> };
  policy: RetryPolicy;
  log: Logger;
  writer: RawWriter;
};

/** The endpoint's limiter: from `limiters` when given (shared by every extraction of one API key), else new. */
function limiterFor(stream: StreamDef, context: Context): RateLimiter {
  const existing = context.limiters?.get(stream.path);
  if (existing !== undefined) return existing;
  const limiter = createRateLimiter({ perSecond: stream.ratePerSecond * (context.rateScale ?? 1), clock: context.clock, sleep: context.retryDeps.sleep });
  context.limiters?.set(stream.path, limiter);
  return limiter;
}

/** The windows still to read: unfinished ones resume at their cursor, the rest of the range is planned anew. */
async function planTasks(stream: PagedStreamDef, windowMs: number, context: Context, stats: StreamStats): Promise<Task[]> {
  const refresh = context.refresh ?? [];
  if (refresh.length > 0) {
    await context.warehouse.transaction(async (c) => {
      for (const row of await readCoverage(c, context.account, stream.name)) {
        if (refresh.some((r) => row.window.start >= r.start && row.window.end <= r.end)) {
          await dropWindow(c, context.account, stream.name, row.partition, row.window);
        }
      }
    });
  }
  const coverage = await context.warehouse.exclusive((c) => readCoverage(c, context.account, stream.name));
  const tasks: Task[] = [];
  for (const partition of stream.partitions) {
    const rows = coverage.filter((r) => r.partition === partition.name);
    const resumable = rows.filter((r) => r.status === 'open' && r.window.start >= context.from && r.window.end <= context.to);
    const done = rows.filter((r) => r.status === 'done');
    stats.windowsSkipped += done.filter((r) => r.window.start < context.to && r.window.end > context.from).length;
    for (const r of resumable) tasks.push({ partition: partition.name, params: partition.params, window: r.window, ...(r.cursor === null ? {} : { cursor: r.cursor }) });
    // A refreshed range counts as not covered, even where a done window reaches into it.
    const covered = [...done.flatMap((r) => uncovered(r.window.start, r.window.end, refresh)), ...resumable.map((r) => r.window)];
    const gaps = uncovered(context.from, context.to, covered);
    for (const gap of gaps) {
      for (const window of planWindows(gap.start, gap.end, windowMs)) tasks.push({ partition: partition.name, params: partition.params, window });
    }
  }
  return tasks;
}

async function extractPaged(stream: PagedStreamDef, stats: StreamStats, context: Context): Promise<void> {
  const { account, warehouse, writer, log } = context;
  const learned = await warehouse.exclusive((c) => readLearnedWindow(c, account, stream.name));
  let windowMs = Math.min(stream.maxWindowDays * DAY_MS, learned ?? Infinity);
  const tasks = await planTasks(stream, windowMs, context, stats);
  stats.windowsPlanned = tasks.length;
  const fetchPage = createFetcher(stream.path, stream.readPage, {
    client: context.client,
    limiter: limiterFor(stream, context),
    policy: context.policy,
    retryDeps: context.retryDeps,
    stats,
  });
  const seenFields = new Set<string>();

  /**
   * Reads one window page by page. Returns the tasks that replace it when the server refused it (too wide:
   * the window again, to be split at the learned width; too many records: its two halves), else none.
   */
  const runTask = async (task: Task): Promise<Task[]> => {
    let cursor = task.cursor;
    let pages = 0;
    const maxPages = Math.ceil(MAX_WINDOW_RECORDS / stream.pageLimit);
    let previousLastTs: number | undefined;
    // Records this window returned, and how many lay inside it: none inside means times read wrong.
    let returned = 0;
    let inside = 0;
    let firstOutside: number | undefined;
    // Commits of this window not yet on disk, oldest first; pages keep their order because the writer does.
    const pending: Promise<void>[] = [];
    const settle = () => Promise.all(pending.splice(0));
    for (;;) {
      let page;
      try {
        page = await fetchPage({ ...task.params, ...windowParams(task.window), limit: String(stream.pageLimit), idLessThan: cursor });
      } catch (error) {
        const width = task.window.end - task.window.start;
        if (tooManyRecords(error) && width >= 2 * MIN_WINDOW_MS) {
          await settle();
          if (cursor !== undefined) await warehouse.transaction((c) => dropWindow(c, account, stream.name, task.partition, task.window));
          const middle = task.window.start + Math.floor(width / 2);
          // Expected of a busy account (the cap is 20,000 records a query), so not a warning.
          log.info(`${stream.name}: the server holds too many records for one window; reading it in two halves`, {
            stream: stream.name,
            from: new Date(task.window.start).toISOString(),
            to: new Date(task.window.end).toISOString(),
          });
          return [
            { partition: task.partition, params: task.params, window: { start: task.window.start, end: middle } },
            { partition: task.partition, params: task.params, window: { start: middle, end: task.window.end } },
          ];
        }
        const narrower = narrowedWindowMs(error, width);
        if (narrower === undefined) throw error;
        await settle();
        if (narrower < MIN_WINDOW_MS) {
          throw new ExtractError(`${stream.name}: the server refuses even ${narrower} ms windows (${(error as Error).message})`, 'LP_WINDOW_TOO_NARROW', { cause: error });
        }
        if (narrower < windowMs) {
          windowMs = narrower;
          const reason = (error as Error).message;
          await warehouse.transaction((c) => saveLearnedWindow(c, { account, stream: stream.name, windowMs, reason, now: context.clock() }));
          log.warn(`${stream.name}: the server refused a window as too wide; using ${Math.round((windowMs / DAY_MS) * 1000) / 1000}-day windows from now on`, { stream: stream.name });
        }
        if (cursor !== undefined) await warehouse.transaction((c) => dropWindow(c, account, stream.name, task.partition, task.window));
        return [{ partition: task.partition, params: task.params, window: task.window }];
      }
      // Loaded when inside the run's range, even if the server returned it for another window: keys dedupe.
      const checked = checkRecords(stream, page.records, { time: stream.time, range: { start: context.from, end: context.to }, window: task.window, seenFields });
      const valid = page.records.length - checked.quarantine.length;
      returned += valid;
      inside += valid - checked.outsideWindow;
      firstOutside ??= checked.firstOutsideWindow;
      const full = page.records.length >= stream.pageLimit;
      // A window whose records all lie outside it is not marked read: its times were probably misread.
      const stray = !full && returned > 0 && inside === 0;
      if (stray) {
        log.warn(
          `${stream.name}${task.partition === '' ? '' : ` ${task.partition}`}: the window ${new Date(task.window.start).toISOString()} .. ${new Date(task.window.end).toISOString()} returned ${returned} record${returned === 1 ? '' : 's'} and none lay inside it (the first at ${String(firstOutside)}); the window stays unread`,
          { stream: stream.name },
        );
      }
      if (full) {
        if (page.cursor === undefined) {
          throw new ExtractError(`${stream.name}: a full page came without a cursor to the next one; the platform's paging changed — report this`, 'LP_CURSOR_MISSING');
        }
        if (cursor !== undefined && compareIds(page.cursor, cursor) >= 0) {
          throw new ExtractError(`${stream.name}: the paging cursor did not move forward (${page.cursor} after ${cursor}); stopping rather than loop — report this`, 'LP_CURSOR_STUCK');
        }
      }
      const firstTs = page.records.length > 0 ? stream.time(page.records[0] as Record<string, unknown>) : undefined;
      const tie = previousLastTs !== undefined && firstTs === previousLastTs;
      previousLastTs = page.records.length > 0 ? stream.time(page.records[page.records.length - 1] as Record<string, unknown>) : undefined;
      const commit: PageCommit = {
        stream: stream.name,
        partition: task.partition,
        window: task.window,
        records: checked.load,
        cursor: full ? (page.cursor as string) : null,
        done: !full && !stray,
        tie,
        drift: checked.drift,
        quarantine: checked.quarantine,
      };
      // Fetch on while earlier pages commit (the writer folds waiting pages into one transaction), but
      // never run more than PAGES_AHEAD pages ahead of the disk: memory stays bounded.
      if (pending.length >= PAGES_AHEAD) await pending.shift();
      const committed = writer.commit(commit).then(() => {
        stats.pages++;
        stats.records += checked.load.length;
        stats.outside += checked.outside;
        stats.outsideWindow += checked.outsideWindow;
        stats.quarantined += checked.quarantine.length;
        if (tie) stats.tiePages++;
        if (stray) stats.strayWindows++;
        else if (!full) stats.windowsDone++;
        context.onProgress?.(stream.name, stats);
      });
      // Awaited below; the no-op handler keeps a failed batch from also surfacing as unhandled rejections.
      committed.catch(() => undefined);
      pending.push(committed);
      if (!full) break;
      cursor = page.cursor;
      if (++pages >= maxPages) {
        // Started over by the next run: what this window loaded stays (keys dedupe), its cursor does not.
        await settle();
        await warehouse.transaction((c) => dropWindow(c, account, stream.name, task.partition, task.window));
        throw new ExtractError(
          `${stream.name}${task.partition === '' ? '' : ` ${task.partition}`}: the window ${new Date(task.window.start).toISOString()} .. ${new Date(task.window.end).toISOString()} went on past ${maxPages} pages (${MAX_WINDOW_RECORDS} records, the most ledgerpipe reads from one window) without an end; its paging looks broken, so the window is left unread — report this`,
          'LP_PAGE_CAP',
          { exit: 'incomplete' },
        );
      }
    }
    await settle();
    return [];
  };

  // On a failure, the other windows finish the page in hand and stop: what is committed stays, nothing more starts.
  await runPool(tasks, { concurrency: context.concurrency ?? 4 }, async (task) => {
    if (task.window.end - task.window.start > windowMs && task.cursor === undefined) {
      // A window planned before the server taught a narrower one: split it and read the parts.
      const parts = planWindows(task.window.start, task.window.end, windowMs).map((window) => ({ ...task, window }) as Task);
      stats.windowsPlanned += parts.length - 1;
      return parts;
    }
    const replacements = await runTask(task);
    stats.windowsPlanned += Math.max(0, replacements.length - 1);
    return replacements;
  });
}

async function extractSnapshot(stream: SnapshotStreamDef, stats: StreamStats, context: Context): Promise<void> {
  const fetch = createFetcher(stream.path, stream.readPage, {
    client: context.client,
    limiter: limiterFor(stream, context),
    policy: context.policy,
    retryDeps: context.retryDeps,
    stats,
  });
  const records = await fetch({});
  // The snapshot's time is the server's, so two machines' snapshots of one moment agree.
  const takenAt = Math.round(context.clock() + context.client.offsetMs);
  const checked = checkRecords(stream, records, { time: () => takenAt, keyPrefix: `${takenAt}:`, seenFields: new Set() });
  await context.writer.commit({
    stream: stream.name,
    partition: '',
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
  context.onProgress?.(stream.name, stats);
}
