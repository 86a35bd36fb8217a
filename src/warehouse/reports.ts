import type { Window } from '../time/window.js';
import type { Warehouse } from './warehouse.js';

/**
 * The warehouse's report queries, in one module: what `status` and the run summary show, read as typed rows.
 * The text is written in cli/ (cli/status.ts).
 */

async function query(warehouse: Warehouse, sql: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
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
  const rows = await query(warehouse, 'SELECT DISTINCT account FROM runs UNION SELECT DISTINCT account FROM raw_records ORDER BY 1');
  return rows.map((r) => String(r['account']));
}

export async function readAccountReport(warehouse: Warehouse, account: string): Promise<AccountReport> {
  const [last] = await query(
    warehouse,
    `SELECT command, status, exit_code, message, stage, epoch_ms(started_at) AS started, epoch_ms(finished_at) AS finished
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
  const counts = await query(warehouse, 'SELECT stream, count(*) AS n FROM raw_records WHERE account = $account GROUP BY ALL', { account });
  const learned = await query(warehouse, 'SELECT stream, window_ms FROM learned_windows WHERE account = $account', { account });
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
  const [row] = await query(warehouse, "SELECT version, epoch_ms(updated_at) AS at FROM model_versions WHERE name = 'type_catalog'");
  return row === undefined ? undefined : { version: String(row['version']), at: Number(row['at']) };
}

/** Per calendar year (UTC): the ledger's net movement per asset, and the balance snapshots of that year. */
export interface Reconciliation {
  movements: { year: number; asset: string; net: string }[];
  snapshots: { year: number; at: number; totalUsdt: string }[];
}

/** One account's movements and snapshots by year; undefined before a transform has built the ledger. */
export async function readReconciliation(warehouse: Warehouse, account: string): Promise<Reconciliation | undefined> {
  const [tables] = await query(warehouse, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ('ledger', 'account_balances')");
  if (Number(tables?.['n'] ?? 0) < 2) return undefined;
  const movements = await query(
    warehouse,
    `SELECT year(timezone('UTC', ts)) AS yr, asset, lp_total(amount) AS net
     FROM ledger WHERE account = $account GROUP BY ALL ORDER BY yr, asset`,
    { account },
  );
  const snapshots = await query(
    warehouse,
    `SELECT year(timezone('UTC', ts)) AS yr, epoch_ms(ts) AS snapshot_ms, lp_total(usdt_balance) AS total
     FROM account_balances WHERE account = $account GROUP BY ALL ORDER BY snapshot_ms`,
    { account },
  );
  return {
    movements: movements.map((m) => ({ year: Number(m['yr']), asset: String(m['asset']), net: String(m['net']) })),
    snapshots: snapshots.map((x) => ({ year: Number(x['yr']), at: Number(x['snapshot_ms']), totalUsdt: String(x['total']) })),
  };
}
