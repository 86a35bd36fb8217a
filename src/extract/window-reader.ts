import { ExtractError } from '../errors/extract-error.js';
import { PlatformError } from '../errors/platform-error.js';
import type { Logger } from '../util/logger.js';
import type { PageRead, PagedStreamDef } from '../streams/stream.js';
import { formatInstant } from '../time/instant.js';
import { windowParams, type Window } from '../time/window.js';
import { compareIds } from '../util/ids.js';
import { dropWindow, saveLearnedWindow } from '../reads/coverage.js';
import type { PageCommit, RawWriter } from '../load/raw-writer.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { MIN_WINDOW_MS, narrowedWindowMs, outOfReach, REACH_PRECISION_MS, tooManyRecords } from './narrowing.js';
import { checkRecords, type CheckedRecords } from './records.js';
import type { StreamStats } from './stats.js';
import { describeWindow, type Task } from './tasks.js';

const DAY_MS = 86_400_000;
/** Pages of one window fetched but not yet committed, at most. */
const PAGES_AHEAD = 8;
/**
 * Records one window may return before its paging is taken for broken: 2.5 times the 20,000 the live service
 * serves for one query before it refuses with 40303 (docs/extraction.md). A cursor that moves on
 * forever would otherwise read without end.
 */
export const MAX_WINDOW_RECORDS = 50_000;

/** What reading the windows of one stream shares: where pages come from and go, and the width in use. */
export interface StreamReading {
  stream: PagedStreamDef;
  account: string;
  warehouse: Warehouse;
  writer: RawWriter;
  log: Logger;
  clock: () => number;
  /** The run's range: records outside it are not loaded. */
  range: Window;
  stats: StreamStats;
  /** Reads one page of a partition (from the partition's own endpoint when it has one). */
  fetchPage: (partition: string, params: Readonly<Record<string, string | undefined>>) => Promise<PageRead>;
  /** Fields seen so far, so schema drift is reported once per stream. */
  seenFields: Set<string>;
  /** The window width in use: narrowed, for this run and the next, when the server refuses a wider one. */
  windowMs: number;
  /**
   * Per partition, the latest start of a window the server refused as older than it reaches (docs/history.md):
   * every instant before it is out of reach, so a window that ends by then is recorded unreachable unasked.
   */
  refusedBefore: Map<string, number>;
  /** Where the run's own range starts: the windows before it are the history a cost basis reads (docs/history.md). */
  historyEnd: number;
  /** Per partition, the latest start of a window the server answered (this run's, or a done window of before). */
  answeredFrom: Map<string, number>;
  /** After each committed page, with the window of its records (ExtractOptions.onProgress). */
  onProgress?: ((stream: string, stats: StreamStats, window?: Window) => void) | undefined;
}

/** What the pages of one window have shown so far: whether its records lie inside it, and page-break ties. */
interface WindowTally {
  returned: number;
  inside: number;
  firstOutside: number | undefined;
  previousLastTs: number | undefined;
}

/** One page, checked: what to load, whether more pages follow, and what it says about the window. */
interface PageStep {
  checked: CheckedRecords;
  full: boolean;
  /** The window's records all lie outside it (times misread, probably): it is not marked read. */
  stray: boolean;
  /** The page starts in the millisecond the previous one ended in. */
  tie: boolean;
}

/**
 * Reads one window page by page, each page committed with its cursor (so a killed run resumes at it), fetching
 * on while earlier pages are written. Returns the tasks that replace the window when the server refused it
 * (too wide: the window again, to be split at the learned width; too many records: its two halves), else none.
 */
export async function readWindow(reading: StreamReading, task: Task): Promise<Task[]> {
  const { stream } = reading;
  const refused = reading.refusedBefore.get(task.partition);
  if (refused !== undefined && task.window.end <= refused) {
    await commitNothing(reading, task, 'unreachable');
    return [];
  }
  const maxPages = Math.ceil(MAX_WINDOW_RECORDS / stream.pageLimit);
  const tally: WindowTally = { returned: 0, inside: 0, firstOutside: undefined, previousLastTs: undefined };
  // Commits of this window not yet on disk, oldest first; pages keep their order because the writer does.
  const pending: Promise<void>[] = [];
  const settle = () => Promise.all(pending.splice(0));
  let cursor = task.cursor;
  for (let pages = 1; ; pages++) {
    let page: PageRead;
    try {
      // An endpoint without a time range is asked for its pages only (windowless).
      const when = stream.windowless === true ? {} : windowParams(task.window);
      page = await reading.fetchPage(task.partition, {
        ...task.params,
        ...when,
        limit: String(stream.pageLimit),
        [cursorOf(stream).param]: cursor,
      });
    } catch (error) {
      return replaceRefusedWindow(reading, task, error, { resumed: cursor !== undefined, settle });
    }
    const step = checkPage(reading, task, page, cursor, tally);
    // Fetch on while earlier pages commit (the writer folds waiting pages into one transaction), but never run
    // more than PAGES_AHEAD pages ahead of the disk: memory stays bounded.
    if (pending.length >= PAGES_AHEAD) await pending.shift();
    pending.push(commitPage(reading, task, page, step));
    if (!step.full) break;
    cursor = page.cursor;
    if (pages >= maxPages) {
      // Started over by the next run: what this window loaded stays (keys dedupe), its cursor does not.
      await settle();
      await reading.warehouse.transaction((c) =>
        dropWindow(c, reading.account, stream.name, task.partition, task.window),
      );
      throw new ExtractError(
        `${describeWindow(stream, task)} went on past ${maxPages} pages (${MAX_WINDOW_RECORDS} records, the most ledgerpipe reads from one window) without an end; its paging looks broken, so the window is left unread — report this`,
        'LP_PAGE_CAP',
        { exit: 'incomplete' },
      );
    }
  }
  await settle();
  return [];
}

/** How a stream asks for its next page: idLessThan and a falling record id, unless it says otherwise. */
const cursorOf = (stream: PagedStreamDef): { param: string; descending: boolean } =>
  stream.cursor ?? { param: 'idLessThan', descending: true };

/** Checks a page's records and its cursor, and updates what the window has shown so far. */
function checkPage(
  reading: StreamReading,
  task: Task,
  page: PageRead,
  cursor: string | undefined,
  tally: WindowTally,
): PageStep {
  const { stream } = reading;
  // Loaded when inside the run's range, even if the server returned it for another window: keys dedupe.
  const checked = checkRecords(stream, page.records, {
    time: stream.time,
    range: { start: reading.range.start, end: reading.range.end },
    window: task.window,
    seenFields: reading.seenFields,
  });
  const valid = page.records.length - checked.quarantine.length;
  tally.returned += valid;
  tally.inside += valid - checked.outsideWindow;
  tally.firstOutside ??= checked.firstOutsideWindow;
  const full = page.records.length >= stream.pageLimit;
  // An endpoint that takes no time range answers what lies outside the window as a matter of course.
  const stray = !full && tally.returned > 0 && tally.inside === 0 && stream.windowless !== true;
  if (stray) {
    const n = tally.returned;
    reading.log.warn(
      `${describeWindow(stream, task)} returned ${n} record${n === 1 ? '' : 's'} and none lay inside it (the first at ${String(tally.firstOutside)}); the window stays unread`,
      {
        stream: stream.name,
      },
    );
  }
  if (full && page.cursor === undefined) {
    throw new ExtractError(
      `${stream.name}: a full page came without a cursor to the next one; the platform's paging changed — report this`,
      'LP_CURSOR_MISSING',
    );
  }
  // A record id falls page by page; a token the platform hands out need only change.
  const stuck = cursorOf(stream).descending
    ? (next: string, last: string) => compareIds(next, last) >= 0
    : (next: string, last: string) => next === last;
  if (full && cursor !== undefined && stuck(page.cursor as string, cursor)) {
    throw new ExtractError(
      `${stream.name}: the paging cursor did not move forward (${String(page.cursor)} after ${cursor}); stopping rather than loop — report this`,
      'LP_CURSOR_STUCK',
    );
  }
  const time = (i: number) => stream.time(page.records[i] as Record<string, unknown>);
  const tie = tally.previousLastTs !== undefined && page.records.length > 0 && time(0) === tally.previousLastTs;
  tally.previousLastTs = page.records.length > 0 ? time(page.records.length - 1) : undefined;
  return { checked, full, stray, tie };
}

/** Hands a checked page to the writer with its cursor; counts it once it is on disk. */
function commitPage(reading: StreamReading, task: Task, page: PageRead, step: PageStep): Promise<void> {
  const { stream, stats } = reading;
  const { checked, full, stray, tie } = step;
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
  const committed = reading.writer.commit(commit).then(() => {
    stats.pages++;
    stats.records += checked.load.length;
    stats.outside += checked.outside;
    stats.outsideWindow += checked.outsideWindow;
    stats.quarantined += checked.quarantine.length;
    if (tie) stats.tiePages++;
    if (stray) stats.strayWindows++;
    else if (!full) stats.windowsDone++;
    if (!full && !stray)
      reading.answeredFrom.set(
        task.partition,
        Math.max(reading.answeredFrom.get(task.partition) ?? -Infinity, task.window.start),
      );
    reading.onProgress?.(stream.name, stats, checked.load.length > 0 ? task.window : undefined);
  });
  // Awaited by readWindow; the no-op handler keeps a failed batch from also surfacing as an unhandled rejection.
  committed.catch(() => undefined);
  return committed;
}

/**
 * A window the server refused as older than it reaches (docs/history.md): everything before its start is out of
 * reach too. Split in two, newest half first, until the part it answers is read and the rest, no wider than
 * REACH_PRECISION_MS, is recorded unreachable: the boundary is found with a request or two per halving.
 */
async function splitUnreachable(reading: StreamReading, task: Task, error: unknown): Promise<Task[]> {
  const before = reading.refusedBefore.get(task.partition);
  // A refusal tells that older windows are out of reach too only where the platform's reach ends as a boundary:
  // a newer window of the partition was answered, or the window lies in the history before the run's range (read
  // newest first). Otherwise the window alone is split and asked again, its neighbours asked as planned.
  const answered = reading.answeredFrom.get(task.partition);
  const boundary = (answered !== undefined && answered >= task.window.end) || task.window.end <= reading.historyEnd;
  if (boundary && (before === undefined || task.window.start > before))
    reading.refusedBefore.set(task.partition, task.window.start);
  const width = task.window.end - task.window.start;
  if (width <= REACH_PRECISION_MS) {
    await commitNothing(reading, task, 'unreachable');
    if (before === undefined) {
      reading.log.warn(
        `${describeWindow(reading.stream, task)} is older than the platform reaches (${(error as Error).message}); recorded unreachable, with every window before it (docs/history.md)`,
        { stream: reading.stream.name },
      );
    }
    return [];
  }
  const middle = task.window.start + Math.floor(width / 2);
  return [
    { partition: task.partition, params: task.params, window: { start: middle, end: task.window.end } },
    { partition: task.partition, params: task.params, window: { start: task.window.start, end: middle } },
  ];
}

/**
 * Records the task's window with no records and no cursor, and counts it: read to its end (`done`), or unreachable,
 * older than the platform answers, never asked again (docs/history.md).
 */
async function commitNothing(reading: StreamReading, task: Task, outcome: 'done' | 'unreachable'): Promise<void> {
  await reading.writer.commit({
    stream: reading.stream.name,
    partition: task.partition,
    window: task.window,
    records: [],
    cursor: null,
    ...(outcome === 'done' ? { done: true } : { done: false, unreachable: true }),
    tie: false,
    drift: [],
    quarantine: [],
  });
  if (outcome === 'done') reading.stats.windowsDone++;
  else reading.stats.windowsUnreachable++;
  reading.onProgress?.(reading.stream.name, reading.stats);
}

/**
 * What replaces a window the server refused: too many records (40303), its two halves; too wide, the window
 * again, after the narrower width is learned (saved for later runs). The window's partial coverage is dropped,
 * so its halves or parts are read whole. Any other failure is thrown as it is.
 */
async function replaceRefusedWindow(
  reading: StreamReading,
  task: Task,
  error: unknown,
  how: { resumed: boolean; settle: () => Promise<unknown> },
): Promise<Task[]> {
  const { stream, warehouse, account, log } = reading;
  const width = task.window.end - task.window.start;
  if (error instanceof PlatformError && stream.emptyWhen?.(error) === true) {
    // The account has none of these records (the stream says which refusals mean so): the window is read, empty.
    await how.settle();
    await commitNothing(reading, task, 'done');
    return [];
  }
  if (outOfReach(error)) {
    await how.settle();
    if (how.resumed)
      await warehouse.transaction((c) => dropWindow(c, account, stream.name, task.partition, task.window));
    return splitUnreachable(reading, task, error);
  }
  const halve = tooManyRecords(error) && width >= 2 * MIN_WINDOW_MS;
  const narrower = halve ? undefined : narrowedWindowMs(error, width);
  if (!halve && narrower === undefined) throw error;
  await how.settle();
  if (narrower !== undefined && narrower < MIN_WINDOW_MS) {
    throw new ExtractError(
      `${stream.name}: the server refuses even ${narrower} ms windows (${(error as Error).message})`,
      'LP_WINDOW_TOO_NARROW',
      { cause: error },
    );
  }
  if (narrower !== undefined && narrower < reading.windowMs) {
    reading.windowMs = narrower;
    const reason = (error as Error).message;
    await warehouse.transaction((c) =>
      saveLearnedWindow(c, { account, stream: stream.name, windowMs: narrower, reason, now: reading.clock() }),
    );
    log.warn(
      `${stream.name}: the server refused a window as too wide; using ${Math.round((narrower / DAY_MS) * 1000) / 1000}-day windows from now on`,
      { stream: stream.name },
    );
  }
  if (how.resumed) await warehouse.transaction((c) => dropWindow(c, account, stream.name, task.partition, task.window));
  if (narrower !== undefined) return [{ partition: task.partition, params: task.params, window: task.window }];
  const middle = task.window.start + Math.floor(width / 2);
  // Expected of a busy account (the cap is 20,000 records a query), so not a warning.
  log.info(`${stream.name}: the server holds too many records for one window; reading it in two halves`, {
    stream: stream.name,
    from: formatInstant(task.window.start),
    to: formatInstant(task.window.end),
  });
  return [
    { partition: task.partition, params: task.params, window: { start: task.window.start, end: middle } },
    { partition: task.partition, params: task.params, window: { start: middle, end: task.window.end } },
  ];
}
