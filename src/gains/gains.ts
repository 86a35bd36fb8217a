import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { DuckDBDecimalValue } from '../warehouse/duckdb.js';
import { DEFAULT_POOL } from '../models/settings.js';
import { describeWarehouse } from '../warehouse/dictionary.js';
import { readSqlFolder, runSqlFile } from '../warehouse/sql-files.js';
import { hasTables } from '../warehouse/tables.js';
import { timestampTz } from '../warehouse/time-values.js';
import { dec, mulDiv, SCALE, text, ZERO, type Dec } from './decimal.js';
import { openingLotEvents } from './opening-lots.js';
import { matchEvents, type CostBasis, type GainEvent, type OpenLot, type Slice } from './match.js';

/** How gains are computed (docs/gains.md): --cost-basis, --pool, --tax-year-start; the opening lots are the warehouse's (table opening_lots). */
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
  /** --withdrawals: coins withdrawn to outside leave the lots (`transfer`, the default) or are disposed of (`disposal`). */
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

/**
 * Computes the lots and disposals of every asset over the whole ledger (so that earlier years' lots carry into
 * the range) and writes the tables `disposals` and `lots` (open at the end) and the view `gains_summary`.
 * Reads the valued ledger of the session's valuation: run after prepareValuation.
 *
 * @example
 * await computeGains(c, { costBasis: 'fifo', pool: 'account', taxYearStart: '01-01', timeZone: 'UTC' });
 */
export async function computeGains(c: DuckDBConnection, options: GainsOptions): Promise<GainsResult> {
  await c.run('SET VARIABLE lp_gains_pool = $pool', { pool: options.pool });
  await c.run('SET VARIABLE lp_gains_withdrawals = $withdrawals', { withdrawals: options.withdrawals ?? 'transfer' });
  if (options.until === undefined) await c.run('SET VARIABLE lp_gains_until = CAST(NULL AS TIMESTAMPTZ)');
  else await c.run('SET VARIABLE lp_gains_until = $until', { until: timestampTz(options.until) });
  for (const file of await readSqlFolder('gains')) await runSqlFile(c, file);
  const unit = String((await c.runAndReadAll(`SELECT coalesce(lp_valuation_fiat(), 'USDT')`)).getRows()[0]?.[0]);
  const localDay = dayOf(options.costBasis === 'uk' ? 'Europe/London' : undefined);
  const opening = groupByPoolAndAsset(await openingLotEvents(c, unit, options.pool, localDay));
  const keys = (await c.runAndReadAll('SELECT DISTINCT pool, asset FROM temp.lp_gain_event_rows ORDER BY pool, asset')).getRows().map((r) => JSON.stringify([String(r[0]), String(r[1])]));
  const moved = new Set(keys);
  const slices = await c.createAppender('lp_gain_slices', 'main', 'temp');
  const lots = await c.createAppender('lp_gain_lots', 'main', 'temp');
  const result: GainsResult = { unit, costBasis: options.costBasis, disposals: 0, unmatched: 0, unmatchedByAsset: new Map(), lots: 0 };
  try {
    // One pool and asset at a time: only its movements are in memory. Opening lots of an asset the ledger
    // never moves are open lots all the same.
    for (const key of [...new Set([...keys, ...opening.keys()])].sort()) {
      const [pool, asset] = JSON.parse(key) as [string, string];
      const events = moved.has(key) ? await readEvents(c, pool, asset, localDay) : [];
      const matched = matchEvents(inTimeOrder([...(opening.get(key) ?? []), ...events]), options.costBasis, options.openAt);
      for (const slice of matched.slices) appendSlice(slices, asset, slice, result);
      for (const lot of matched.open) appendLot(lots, options.pool === 'all' ? pool : lot.account, asset, lot, result);
    }
    slices.flushSync();
    lots.flushSync();
  } finally {
    slices.closeSync();
    lots.closeSync();
  }
  await c.run('SET VARIABLE lp_tax_year_start = $start', { start: options.taxYearStart });
  await c.run('SET VARIABLE lp_gains_time_zone = $tz', { tz: options.costBasis === 'uk' ? 'Europe/London' : options.timeZone });
  await c.run('SET VARIABLE lp_gains_unit = $unit', { unit });
  await c.run('SET VARIABLE lp_cost_basis = $basis', { basis: options.costBasis });
  for (const file of await readSqlFolder('gains-tables')) await runSqlFile(c, file);
  // The tables are made anew: their meanings go back on them (the data dictionary).
  await describeWarehouse(c);
  return result;
}

/** The movements of one pool and asset, in time order (their order in lp_gain_event_rows). */
async function readEvents(c: DuckDBConnection, pool: string, asset: string, localDay: (ts: number) => string): Promise<GainEvent[]> {
  const reader = await c.runAndReadAll(
    `SELECT account, ts_ms, kind, quantity, own, other, side_value, side_legs, group_fees, trade_group, flags
     FROM temp.lp_gain_event_rows WHERE pool = $pool AND asset = $asset ORDER BY ts_ms, entry_id`,
    { pool, asset },
  );
  return reader.getRows().map((r) => {
    const ts = Number(r[1]);
    const flags = String(r[10] ?? '');
    const kind = r[2] as GainEvent['kind'];
    const { value, fees } = valueAndFees(kind, { own: optionalDec(r[4]), other: optionalDec(r[5]), sideValue: optionalDec(r[6]), sideLegs: Number(r[7] ?? 1), groupFees: optionalDec(r[8]) ?? ZERO });
    return {
      account: String(r[0]), ts, day: localDay(ts), kind, quantity: optionalDec(r[3]) ?? ZERO, value, fees,
      tradeGroup: r[9] === null ? null : String(r[9]), flags: flags === '' ? [] : flags.split(' '),
    };
  });
}

/** Events in time order: a stable sort, so that one instant keeps the order given (opening lots first). */
const inTimeOrder = (events: GainEvent[]): GainEvent[] => events.sort((a, b) => a.ts - b.ts);

/** A DECIMAL(38, 18) cell as a Dec: its scaled value is one already. */
function optionalDec(cell: unknown): Dec | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof DuckDBDecimalValue && cell.scale === SCALE) return cell.value;
  return dec(String(cell));
}

/**
 * An event's value and fees from its row of lp_gain_events: a trade leg's share of the other side's value (all
 * of it when alone on its side, else by its own value, rounded once), else its own value (0 when it has none);
 * the group's fees shared the same way, part of the cost of an acquisition.
 */
function valueAndFees(kind: GainEvent['kind'], row: { own: Dec | null; other: Dec | null; sideValue: Dec | null; sideLegs: number; groupFees: Dec }): { value: Dec; fees: Dec } {
  const share = (total: Dec): Dec => (row.sideLegs <= 1 ? total : row.sideValue === null || row.sideValue === ZERO ? ZERO : mulDiv(total, row.own ?? ZERO, row.sideValue));
  const value = row.other === null ? (row.own ?? ZERO) : share(row.other);
  const fees = row.groupFees === ZERO ? ZERO : share(row.groupFees);
  return kind === 'acquire' ? { value: value + fees, fees: ZERO } : { value, fees };
}

/** Events by pool and asset (a JSON key), each list in the order given. */
function groupByPoolAndAsset(rows: readonly EventRow[]): Map<string, GainEvent[]> {
  const groups = new Map<string, GainEvent[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.pool, row.asset]);
    let list = groups.get(key);
    if (list === undefined) groups.set(key, (list = []));
    list.push(row.event);
  }
  return groups;
}

function appendSlice(appender: DuckDBAppender, asset: string, slice: Slice, result: GainsResult): void {
  // Plain integers, which sql/gains/00_slices.sql turns back into decimals and instants.
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
  if (slice.proceeds !== null) result.disposals++;
  if (slice.matchRule.endsWith('unmatched') && slice.proceeds !== null) {
    result.unmatched++;
    result.unmatchedByAsset.set(asset, (result.unmatchedByAsset.get(asset) ?? ZERO) + slice.quantity);
  }
}

function appendLot(appender: DuckDBAppender, account: string, asset: string, lot: OpenLot, result: GainsResult): void {
  appender.appendVarchar(account);
  appender.appendVarchar(asset);
  appendUnits(appender, lot.quantity);
  appendUnits(appender, lot.cost);
  appendMs(appender, lot.acquiredAt);
  appender.endRow();
  result.lots++;
}

/** What `status` says of an account's gains: the last computation's method and unit, its slices, and what nothing matched. */
export interface GainsStatus {
  costBasis: string;
  unit: string;
  slices: number;
  unmatched: { asset: string; slices: number; quantity: string }[];
}

/** The gains the last export computed for `account`, or undefined when none was computed. */
export async function readGainsStatus(c: DuckDBConnection, account: string): Promise<GainsStatus | undefined> {
  if (!(await hasTables(c, ['disposals']))) return undefined;
  const rows = (
    await c.runAndReadAll(
      `SELECT any_value(cost_basis), any_value(unit), count(*) FILTER (WHERE is_disposal),
         list({'asset': asset, 'quantity': quantity::VARCHAR} ORDER BY asset) FILTER (WHERE match_rule = 'unmatched')
       FROM disposals WHERE account = $account`,
      { account },
    )
  ).getRowObjectsJS()[0];
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
