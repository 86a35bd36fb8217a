import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_POOL } from '../tables/settings.js';
import { describeWarehouse } from '../warehouse/dictionary.js';
import { param, readModel, runModel, sqlGraph, withParams, type Params } from '../warehouse/sql-graph.js';
import { withSettings } from '../duckdb/session.js';
import { hasTables } from '../duckdb/tables.js';
import { dec, text, ZERO, type Dec } from './decimal.js';
import { eventPages } from './event-pages.js';
import { gainsFingerprint } from './fingerprint.js';
import {
  appendState,
  forgetKept,
  keepComputation,
  keptKeys,
  monthStarts,
  planRestart,
  readState,
  recordPoints,
  type KeptRun,
} from './kept.js';
import { openingLotEvents } from './opening-lots.js';
import {
  createMatcher,
  type CostBasis,
  type GainEvent,
  type Matcher,
  type MatcherState,
  type OpenLot,
  type Slice,
} from './match.js';

/**
 * How gains are computed (docs/gains.md): --cost-basis, --pool, --tax-year-start; the opening lots are the warehouse's
 * (table opening_lots).
 */
export interface GainsOptions {
  costBasis: CostBasis;
  /** `account`: each account's lots apart; `all`: one pool of every account's. */
  pool: 'account' | 'all';
  /** MM-DD, the first day of a tax year (01-01; 04-06 in the UK). */
  taxYearStart: string;
  /** The time zone of dates (holding periods, tax years); the UK rules always count days in Europe/London. */
  timeZone: string;
  /** The range's end (Unix ms): movements from then on are left out, so `lots` are those open then. */
  until?: number;
  /**
   * The UK rules only: movements are read up to `until` (30 days past the range's end, whose acquisitions match the
   * range's last disposals), and the disposals and pools are those of the range, up to `openAt`.
   */
  openAt?: number;
  /**
   * --withdrawals: coins withdrawn to outside leave the lots (`transfer`, the default) or are disposed of (`disposal`).
   */
  withdrawals?: 'transfer' | 'disposal';
}

export { DEFAULT_POOL };

export interface GainsResult {
  unit: string;
  costBasis: CostBasis;
  disposals: number;
  /** Disposal slices no acquisition covers: at zero cost, flagged `no_acquisition`. */
  unmatched: number;
  /** Their quantity, per asset. */
  unmatchedByAsset: Map<string, Dec>;
  lots: number;
  /** Where the computation went on from (the first movement: null), and how many movements it took in. */
  wentOnFrom: number | null;
  movements: number;
}

/** One event as read, before its day is known. */
interface EventRow {
  pool: string;
  asset: string;
  event: GainEvent;
}

/**
 * The local day (YYYY-MM-DD) of an instant in `timeZone`, as the UK rules count days; other methods count no
 * days ('' ). Cached by the hour: every zone of the rules is a whole number of hours from UTC.
 */
function dayOf(timeZone: string | undefined): (ts: number) => string {
  if (timeZone === undefined) return () => '';
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const byHour = new Map<number, string>();
  return (ts) => {
    const hour = Math.floor(ts / 3_600_000);
    let day = byHour.get(hour);
    if (day === undefined) byHour.set(hour, (day = format.format(ts)));
    return day;
  };
}

/** The appenders of one computation: its slices and open lots (temporary), the UK days to redo, the states kept. */
interface Appenders {
  slices: DuckDBAppender;
  lots: DuckDBAppender;
  restarts: DuckDBAppender;
  states: DuckDBAppender;
}

/** What one computation knows while it goes through the pools and assets. */
interface Computation {
  c: DuckDBConnection;
  options: GainsOptions;
  /** The instant it goes on from (null: the first movement), and the head it takes everything in up to. */
  from: number | null;
  head: number;
  /** The instants it keeps states at: month starts after `from`, then the head. */
  points: readonly number[];
  /** Opening lots per pool and asset (a JSON key), in time order. */
  opening: Map<string, GainEvent[]>;
  /** The pools and assets with a state kept. */
  kept: Set<string>;
  out: Appenders;
  result: GainsResult;
}

/** One pool and asset under way: its matcher, its opening lots still to come, and what it kept. */
interface Under {
  key: string;
  pool: string;
  asset: string;
  matcher: Matcher;
  openings: GainEvent[];
  /** The next opening lot, and the next instant a state may be kept at (indexes). */
  nextOpening: number;
  nextPoint: number;
  /** Whether it took a movement in since its last state kept. */
  moved: boolean;
}

/**
 * Computes the lots and disposals of every asset (earlier years' lots carry into the range) and writes the tables
 * `disposals` and `lots` (open at the end) and the view `gains_summary`. Reads the valued ledger of the session's
 * valuation: run after prepareValuation.
 *
 * The engine keeps its state in the warehouse (docs/gains.md, "Kept, not recomputed"; src/gains/kept.ts): a run
 * goes on from the last kept instant before anything changed (planRestart), reads only the movements from then on,
 * a page at a time, and replaces only the disposals from then on; with nothing new, it does nothing. The tables are
 * those a computation from the first movement makes, row for row.
 *
 * @example
 * await computeGains(c, { costBasis: 'fifo', pool: 'account', taxYearStart: '01-01', timeZone: 'UTC' });
 */
export async function computeGains(c: DuckDBConnection, options: GainsOptions): Promise<GainsResult> {
  const unit = String((await c.runAndReadAll(`SELECT coalesce(lp_valuation_fiat(), 'USDT')`)).getRows()[0]?.[0]);
  const uk = options.costBasis === 'uk';
  const localDay = dayOf(uk ? 'Europe/London' : undefined);
  const timeZone = uk ? 'Europe/London' : options.timeZone;
  const opening = groupByPoolAndAsset(await openingLotEvents(c, unit, options.pool, localDay));
  const inputs = {
    costBasis: options.costBasis,
    pool: options.pool,
    taxYearStart: options.taxYearStart,
    withdrawals: options.withdrawals ?? 'transfer',
    timeZone,
    unit,
  };
  const run: KeptRun = {
    fingerprint: await gainsFingerprint(c, inputs),
    until: options.until ?? null,
    openAt: options.openAt ?? null,
    uk,
  };
  const restart = await planRestart(c, run);
  return withParams(c, movementParams(options, restart.from), () =>
    computeFrom(c, { options, unit, uk, localDay, opening, run, restart }),
  );
}

/**
 * The parameters of the movements' files (sql/gains/, sql/gains-kept/): the pool, what a withdrawal is, where the
 * run goes on from (-infinity from the first movement), and the range's end (NULL for none).
 */
function movementParams(options: GainsOptions, from: number | null): Params {
  return {
    lp_gains_pool: options.pool,
    lp_gains_withdrawals: options.withdrawals ?? 'transfer',
    lp_gains_from: param.instant(from ?? Number.NEGATIVE_INFINITY),
    lp_gains_from_ms: param.integer(from ?? Number.MIN_SAFE_INTEGER),
    lp_gains_until: param.instant(options.until),
  };
}

/** What computeFrom goes on with: the run planned, and what was read before it. */
interface Planned {
  options: GainsOptions;
  unit: string;
  uk: boolean;
  localDay: (ts: number) => string;
  opening: Map<string, GainEvent[]>;
  run: KeptRun;
  restart: Awaited<ReturnType<typeof planRestart>>;
}

/** The computation from where the run goes on, with the movements' parameters bound (computeGains). */
async function computeFrom(c: DuckDBConnection, planned: Planned): Promise<GainsResult> {
  const { options, unit, uk, localDay, opening, run, restart } = planned;
  const from = restart.from;
  // The movements' rowids follow their order only with the insertion order kept (sql/gains/20_event_rows.sql).
  await withSettings(c, { preserve_insertion_order: true }, async () => {
    for (const file of (await sqlGraph()).folder('gains')) await runModel(c, file.name);
  });
  const [total, first, last] =
    (await c.runAndReadAll('SELECT count(*), min(ts_ms), max(ts_ms) FROM temp.lp_gain_event_rows')).getRows()[0] ?? [];
  const movements = Number(total ?? 0);
  const result: GainsResult = {
    unit,
    costBasis: options.costBasis,
    disposals: 0,
    unmatched: 0,
    unmatchedByAsset: new Map(),
    lots: 0,
    wentOnFrom: from,
    movements,
  };
  // Nothing new and nothing changed: the tables hold this run's result already (for the UK rules, when the range
  // ends where it did, the days still open to 30 days after it being the same).
  if (restart.from !== null && !restart.changed && movements === 0 && (!uk || restart.kept.openAt === run.openAt)) {
    await runModel(c, 'gains-tables/90_done.sql');
    return summarize(c, result);
  }
  await forgetKept(c, from);
  // Every movement before the head is taken in: up to the last one read (a later one, even at the range's end,
  // goes on from there), else where the run went on from.
  const head = movements === 0 ? (from ?? 0) : Math.min(options.until ?? Number.POSITIVE_INFINITY, Number(last) + 1);
  const points = [
    ...new Set([...monthStarts(from, first === null || first === undefined ? null : Number(first), head), head]),
  ];
  const out = await openAppenders(c);
  const computation: Computation = {
    c,
    options,
    from,
    head,
    points,
    opening,
    kept: new Set(from === null ? [] : await keptKeys(c)),
    out,
    result,
  };
  try {
    await computePools(computation, movements, localDay);
    for (const appender of Object.values(out)) appender.flushSync();
  } finally {
    for (const appender of Object.values(out)) appender.closeSync();
  }
  await writeTables(c, options, unit, from);
  await recordPoints(c, points, restart.from === null ? null : restart.kept.head, head);
  await keepComputation(c, { fingerprint: run.fingerprint, head, until: run.until, openAt: run.openAt });
  return summarize(c, result);
}

/**
 * Feeds every movement read, pool and asset after pool and asset in the pages' order, to its lots; then finishes
 * the pools and assets that did not move, whose lots are open all the same.
 */
async function computePools(
  computation: Computation,
  movements: number,
  localDay: (ts: number) => string,
): Promise<void> {
  const done = new Set<string>();
  let under: Under | undefined;
  for await (const page of eventPages(computation.c, movements, localDay)) {
    for (const { pool, asset, event } of page) {
      if (under?.key !== JSON.stringify([pool, asset])) {
        if (under !== undefined) finish(computation, under);
        under = await begin(computation, pool, asset);
        done.add(under.key);
      }
      feedUpTo(computation, under, event);
    }
  }
  if (under !== undefined) finish(computation, under);
  // The pools and assets that did not move since: their lots are open all the same (and their UK days' slices,
  // open to 30 days after the range, made again for this range's end); opening lots of an asset the ledger never
  // moves are open lots too.
  for (const key of [...new Set([...computation.kept, ...computation.opening.keys()])].sort()) {
    if (done.has(key)) continue;
    const [pool, asset] = JSON.parse(key) as [string, string];
    finish(computation, await begin(computation, pool, asset));
  }
}

async function openAppenders(c: DuckDBConnection): Promise<Appenders> {
  return {
    slices: await c.createAppender('lp_gain_slices', 'main', 'temp'),
    lots: await c.createAppender('lp_gain_lots', 'main', 'temp'),
    restarts: await c.createAppender('lp_gain_restarts', 'main', 'temp'),
    states: await c.createAppender('gains_kept_states'),
  };
}

/**
 * Starts one pool and asset: its matcher from the state kept (none from the first movement), and its opening lots
 * from where the run goes on (the earlier ones are in the state). A UK state with days still open began before it:
 * their disposals are made again, from the first of those days.
 */
async function begin(computation: Computation, pool: string, asset: string): Promise<Under> {
  const { c, options, from } = computation;
  const key = JSON.stringify([pool, asset]);
  const text = computation.kept.has(key) ? await readState(c, pool, asset) : undefined;
  const state = text === undefined ? undefined : (JSON.parse(text) as MatcherState);
  if (state?.method === 'uk' && state.days[0] !== undefined) {
    const { restarts } = computation.out;
    restarts.appendVarchar(pool);
    restarts.appendVarchar(asset);
    restarts.appendBigInt(BigInt(state.days[0].first));
    restarts.endRow();
  }
  const openings = (computation.opening.get(key) ?? []).filter((e) => from === null || e.ts >= from);
  return {
    key,
    pool,
    asset,
    matcher: createMatcher(options.costBasis, state, options.openAt),
    openings,
    nextOpening: 0,
    nextPoint: 0,
    moved: false,
  };
}

/** Feeds the opening lots up to `event` (they come first at one instant), then the event. */
function feedUpTo(computation: Computation, under: Under, event: GainEvent): void {
  for (
    let o = under.openings[under.nextOpening];
    o !== undefined && o.ts <= event.ts;
    o = under.openings[under.nextOpening]
  ) {
    feed(computation, under, o);
    under.nextOpening++;
  }
  feed(computation, under, event);
}

/** Keeps the state at each instant the movement passes (when it moved since its last), then feeds the movement. */
function feed(computation: Computation, under: Under, event: GainEvent): void {
  keepUpTo(computation, under, event.ts);
  for (const slice of under.matcher.feed(event)) appendSlice(computation.out.slices, under.asset, slice);
  under.moved = true;
}

/** The state kept at each of the run's instants up to `ts`: at the first after a movement, none at the others. */
function keepUpTo(computation: Computation, under: Under, ts: number): void {
  const { points } = computation;
  // Called for every movement: most pass no instant.
  if ((points[under.nextPoint] ?? Number.POSITIVE_INFINITY) > ts) return;
  for (let at = points[under.nextPoint]; at !== undefined && at <= ts; at = points[++under.nextPoint]) {
    if (!under.moved) continue;
    appendState(computation.out.states, at, under.pool, under.asset, JSON.stringify(under.matcher.state()));
    under.moved = false;
  }
}

/**
 * Ends one pool and asset: its opening lots before the head, its state kept, then the opening lots from the head on
 * (given for later than the range, they are open lots all the same) and the matcher's end: the slices not final
 * yet and the lots open, appended.
 */
function finish(computation: Computation, under: Under): void {
  const { head, out, options } = computation;
  const rest = under.openings.slice(under.nextOpening);
  for (const o of rest.filter((e) => e.ts < head)) feed(computation, under, o);
  keepUpTo(computation, under, Number.POSITIVE_INFINITY);
  for (const o of rest.filter((e) => e.ts >= head))
    for (const slice of under.matcher.feed(o)) appendSlice(out.slices, under.asset, slice);
  const end = under.matcher.finish(options.openAt);
  for (const slice of end.slices) appendSlice(out.slices, under.asset, slice);
  for (const lot of end.open) appendLot(out.lots, options.pool === 'all' ? under.pool : lot.account, under.asset, lot);
}

/**
 * The tables from the appended slices and lots: made anew from the first movement, else the disposals replaced from
 * where the run went on (and the UK days still open then) and the lots filled again.
 */
async function writeTables(
  c: DuckDBConnection,
  options: GainsOptions,
  unit: string,
  from: number | null,
): Promise<void> {
  const params = {
    lp_tax_year_start: options.taxYearStart,
    lp_gains_time_zone: options.costBasis === 'uk' ? 'Europe/London' : options.timeZone,
    lp_gains_unit: unit,
    lp_cost_basis: options.costBasis,
  };
  const files =
    from === null
      ? [
          'gains-tables/00_slice_rows.sql',
          'gains-tables/10_disposals.sql',
          'gains-tables/20_lots.sql',
          'gains-tables/90_done.sql',
        ]
      : [
          'gains-tables/00_slice_rows.sql',
          'gains-kept/10_disposals_replaced.sql',
          'gains-kept/20_lots_replaced.sql',
          'gains-tables/90_done.sql',
        ];
  await withParams(c, params, async () => {
    for (const file of files) await runModel(c, file);
  });
  // The tables were made anew: their meanings go back on them (the data dictionary).
  if (from === null) await describeWarehouse(c);
}

/**
 * The result's figures, from the tables: every disposal slice, those nothing matched and their quantity per asset, the
 * lots.
 */
async function summarize(c: DuckDBConnection, result: GainsResult): Promise<GainsResult> {
  const [disposals, unmatched] =
    (
      await c.runAndReadAll(
        `SELECT count(*) FILTER (WHERE proceeds IS NOT NULL), count(*) FILTER (WHERE proceeds IS NOT NULL AND match_rule LIKE '%unmatched') FROM disposals`,
      )
    ).getRows()[0] ?? [];
  const byAsset = (
    await c.runAndReadAll(
      `SELECT asset, lp_total(quantity) FROM disposals WHERE proceeds IS NOT NULL AND match_rule LIKE '%unmatched' GROUP BY asset`,
    )
  ).getRows();
  const lots = (await c.runAndReadAll('SELECT count(*) FROM lots')).getRows()[0]?.[0];
  return {
    ...result,
    disposals: Number(disposals ?? 0),
    unmatched: Number(unmatched ?? 0),
    unmatchedByAsset: new Map(byAsset.map((r) => [String(r[0]), dec(String(r[1]))])),
    lots: Number(lots ?? 0),
  };
}

/** Events by pool and asset (a JSON key), each list in time order, those of one instant in the order given. */
function groupByPoolAndAsset(rows: readonly EventRow[]): Map<string, GainEvent[]> {
  const groups = new Map<string, GainEvent[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.pool, row.asset]);
    let list = groups.get(key);
    if (list === undefined) groups.set(key, (list = []));
    list.push(row.event);
  }
  for (const list of groups.values()) list.sort((a, b) => a.ts - b.ts);
  return groups;
}

function appendSlice(appender: DuckDBAppender, asset: string, slice: Slice): void {
  // Plain integers, which sql/gains-tables/00_slice_rows.sql turns back into decimals and instants.
  appender.appendVarchar(slice.account);
  appender.appendVarchar(asset);
  appendUnits(appender, slice.quantity);
  appendMs(appender, slice.disposedAt);
  appendMs(appender, slice.acquiredAt);
  for (const value of [slice.proceeds, slice.cost, slice.fees]) appendUnits(appender, value);
  appender.appendVarchar(slice.matchRule);
  if (slice.tradeGroup === null) appender.appendNull();
  else appender.appendVarchar(slice.tradeGroup);
  appender.appendVarchar(slice.flags.join(' '));
  appender.endRow();
}

function appendLot(appender: DuckDBAppender, account: string, asset: string, lot: OpenLot): void {
  appender.appendVarchar(account);
  appender.appendVarchar(asset);
  appendUnits(appender, lot.quantity);
  appendUnits(appender, lot.cost);
  appendMs(appender, lot.acquiredAt);
  appender.endRow();
}

/**
 * What `status` says of an account's gains: the last computation's method and unit, its slices, and what nothing
 * matched.
 */
export interface GainsStatus {
  costBasis: string;
  unit: string;
  slices: number;
  unmatched: { asset: string; slices: number; quantity: string }[];
}

/** The gains the last export computed for `account`, or undefined when none was computed. */
export async function readGainsStatus(c: DuckDBConnection, account: string): Promise<GainsStatus | undefined> {
  if (!(await hasTables(c, ['disposals']))) return undefined;
  const [rows] = await withParams(c, { lp_account: param.text(account) }, () => readModel(c, 'reads/gains_status.sql'));
  const values = Object.values(rows ?? {});
  if (values[0] === null || values[0] === undefined) return undefined;
  const byAsset = new Map<string, { slices: number; quantity: Dec }>();
  for (const item of (values[3] ?? []) as { asset: string; quantity: string }[]) {
    const entry = byAsset.get(item.asset) ?? { slices: 0, quantity: ZERO };
    byAsset.set(item.asset, { slices: entry.slices + 1, quantity: entry.quantity + dec(item.quantity) });
  }
  return {
    costBasis: String(values[0]),
    unit: String(values[1]),
    slices: Number(values[2]),
    unmatched: [...byAsset].map(([asset, e]) => ({ asset, slices: e.slices, quantity: text(e.quantity) })),
  };
}

/** An amount as its units of 10^-18 (a Dec is that count), or NULL. */
function appendUnits(appender: DuckDBAppender, value: Dec | null): void {
  if (value === null) appender.appendNull();
  else appender.appendHugeInt(value);
}

/** An instant as epoch milliseconds, or NULL. */
function appendMs(appender: DuckDBAppender, ms: number | null): void {
  if (ms === null) appender.appendNull();
  else appender.appendBigInt(BigInt(ms));
}
