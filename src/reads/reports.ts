import type { Window } from '../time/window.js';
import { param, readModel, withParams } from '../warehouse/sql-graph.js';
import { hasTables } from '../duckdb/tables.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * The warehouse's report queries, in one module: what `status` and the run summary show, read as typed rows.
 * The text is written in cli/ (cli/status.ts).
 */

async function query(
  warehouse: Warehouse,
  sql: string,
  params: Record<string, string> = {},
): Promise<Record<string, unknown>[]> {
  return warehouse.exclusive(async (c) => (await c.runAndReadAll(sql, params)).getRowObjectsJS());
}

export interface LastRun {
  command: string;
  status: string;
  exitCode: number | null;
  message: string | null;
  /** The stage it was in when it ended; null for runs of releases before stages were recorded. */
  stage: string | null;
  started: number;
  /** Null while it runs, or when it was killed. */
  finished: number | null;
  /** The range it asked for; null for a run without one (a transform). */
  range: Window | null;
}

export interface CoverageRow {
  stream: string;
  partition: string;
  window: Window;
  done: boolean;
  tiePages: number;
}

/** What the warehouse holds for one account, for `status`. */
export interface AccountReport {
  lastRun: LastRun | undefined;
  /** The ranges the account's runs asked for (extracting ones), as asked. */
  requested: Window[];
  coverage: CoverageRow[];
  recordsByStream: Map<string, number>;
  learnedWindowMs: Map<string, number>;
}

/** The accounts the warehouse knows: those with a run or with records. */
export async function readAccounts(warehouse: Warehouse): Promise<string[]> {
  const rows = await query(
    warehouse,
    'SELECT DISTINCT account FROM runs UNION SELECT DISTINCT account FROM raw_records ORDER BY 1',
  );
  return rows.map((r) => String(r['account']));
}

export async function readAccountReport(warehouse: Warehouse, account: string): Promise<AccountReport> {
  const [last] = await query(
    warehouse,
    `SELECT command, status, exit_code, message, stage, epoch_ms(started_at) AS started, epoch_ms(finished_at) AS finished,
       epoch_ms(range_from) AS range_from, epoch_ms(range_to) AS range_to
     FROM runs WHERE account = $account ORDER BY started_at DESC LIMIT 1`,
    { account },
  );
  const requested = await query(
    warehouse,
    "SELECT epoch_ms(range_from) AS s, epoch_ms(range_to) AS e FROM runs WHERE account = $account AND range_from IS NOT NULL AND command <> 'export' AND command <> 'transform'",
    { account },
  );
  const coverage = await query(
    warehouse,
    'SELECT stream, partition, epoch_ms(window_start) AS s, epoch_ms(window_end) AS e, status, tie_pages FROM coverage WHERE account = $account',
    { account },
  );
  const counts = await query(
    warehouse,
    'SELECT stream, count(*) AS n FROM raw_records WHERE account = $account GROUP BY ALL',
    { account },
  );
  const learned = await query(warehouse, 'SELECT stream, window_ms FROM learned_windows WHERE account = $account', {
    account,
  });
  return {
    lastRun:
      last === undefined
        ? undefined
        : {
            command: String(last['command']),
            status: String(last['status']),
            exitCode: last['exit_code'] === null ? null : Number(last['exit_code']),
            message: last['message'] === null ? null : String(last['message']),
            stage: last['stage'] === null ? null : String(last['stage']),
            started: Number(last['started']),
            finished: last['finished'] === null ? null : Number(last['finished']),
            range:
              last['range_from'] === null || last['range_to'] === null
                ? null
                : { start: Number(last['range_from']), end: Number(last['range_to']) },
          },
    requested: requested.map((r) => ({ start: Number(r['s']), end: Number(r['e']) })),
    coverage: coverage.map((r) => ({
      stream: String(r['stream']),
      partition: String(r['partition']),
      window: { start: Number(r['s']), end: Number(r['e']) },
      done: r['status'] === 'done',
      tiePages: Number(r['tie_pages']),
    })),
    recordsByStream: new Map(counts.map((r) => [String(r['stream']), Number(r['n'])])),
    learnedWindowMs: new Map(learned.map((r) => [String(r['stream']), Number(r['window_ms'])])),
  };
}

/** The catalog version the last transform booked with, and when; undefined before any transform. */
export async function readCatalogVersion(warehouse: Warehouse): Promise<{ version: string; at: number } | undefined> {
  const [row] = await query(
    warehouse,
    "SELECT version, epoch_ms(updated_at) AS at FROM model_versions WHERE name = 'type_catalog'",
  );
  return row === undefined ? undefined : { version: String(row['version']), at: Number(row['at']) };
}

/** Per calendar year (UTC): the ledger's net movement per asset, and the balance snapshots of that year. */
export interface Reconciliation {
  /**
   * Per tax year (its name: `2025`, or `2025-26` for a tax year not starting on 1 January) and asset, the ledger's net.
   */
  movements: { year: string; asset: string; net: string }[];
}

/**
 * One account's ledger movements per tax year of the warehouse's settings (its time zone and tax-year start,
 * docs/settings.md), as the gains name them; undefined before a transform has built the ledger.
 */
export async function readReconciliation(
  warehouse: Warehouse,
  account: string,
  years: { timeZone: string; taxYearStart: string },
): Promise<Reconciliation | undefined> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['ledger'])))) return undefined;
  const params = { lp_account: account, lp_time_zone: years.timeZone, lp_tax_year_start: years.taxYearStart };
  const movements = await warehouse.exclusive((c) =>
    withParams(c, params, () => readModel(c, 'reads/ledger_by_tax_year.sql')),
  );
  return {
    movements: movements.map((m) => ({ year: String(m['yr']), asset: String(m['asset']), net: String(m['net']) })),
  };
}

/** Withdrawals or deposits of one account, asset and state that were not final at a range's end. */
export interface NotFinal {
  account: string;
  stream: 'withdrawals' | 'deposits';
  asset: string;
  /** `open`: its status may still change now; `final later`: it became final after the range's end. */
  state: 'open' | 'final later';
  count: number;
  /** The sum of their sizes, exact. */
  total: string;
}

/**
 * The withdrawals and deposits created in `range` that were not final at its end: those whose status may
 * still change now (`openStatuses`, per stream), and those that became final after the end (their uTime).
 * The ledger leaves out what did not move; these are what a year-end should mention. Empty before a transform.
 */
export async function readNotFinal(
  warehouse: Warehouse,
  range: Window,
  openStatuses: Readonly<Record<'withdrawals' | 'deposits', readonly string[]>>,
  account?: string,
): Promise<NotFinal[]> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['withdrawals', 'deposits'])))) return [];
  const params = {
    lp_from: param.instant(range.start),
    lp_to: param.instant(range.end),
    lp_account: param.text(account),
    lp_open_withdrawals: param.texts(openStatuses.withdrawals),
    lp_open_deposits: param.texts(openStatuses.deposits),
  };
  const rows = await warehouse.exclusive((c) => withParams(c, params, () => readModel(c, 'reads/not_final.sql')));
  return rows.map((r) => ({
    account: String(r['account']),
    stream: r['stream'] === 'deposits' ? 'deposits' : 'withdrawals',
    asset: String(r['asset']),
    state: r['state'] === 'open' ? 'open' : 'final later',
    count: Number(r['n']),
    total: String(r['total']),
  }));
}
