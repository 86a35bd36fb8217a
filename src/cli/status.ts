import { uncovered, type Window } from '../time/window.js';
import { STREAMS } from '../streams/index.js';
import { formatInstant } from '../time/instant.js';
import { readUnreviewed, unreviewedLines } from '../transform/unreviewed.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** Merges windows into the fewest contiguous ranges. */
export function mergeWindows(windows: readonly Window[]): Window[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const out: Window[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last !== undefined && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

const span = (w: Window) => `${formatInstant(w.start)} .. ${formatInstant(w.end)}`;

async function query(warehouse: Warehouse, sql: string, params: Record<string, string> = {}) {
  return warehouse.exclusive(async (c) => (await c.runAndReadAll(sql, params)).getRowObjectsJS());
}

/**
 * What `status` prints: per account and stream, the covered ranges, the gaps inside the history runs asked
 * for (up to `now`: what has not happened yet is no gap), unfinished windows, page breaks inside
 * same-millisecond runs, rows, learned windows and the last run.
 */
export async function statusLines(warehouse: Warehouse, now: number = Date.now()): Promise<string[]> {
  const accounts = (await query(warehouse, 'SELECT DISTINCT account FROM runs UNION SELECT DISTINCT account FROM raw_records ORDER BY 1')).map((r) => String(r['account']));
  if (accounts.length === 0) return ['the warehouse is empty: no run has extracted anything yet'];
  const lines: string[] = [];
  for (const account of accounts) {
    lines.push(`account ${account}`);
    const last = (
      await query(
        warehouse,
        `SELECT command, status, exit_code, message, stage, epoch_ms(started_at) AS started, epoch_ms(finished_at) AS finished
         FROM runs WHERE account = $account ORDER BY started_at DESC LIMIT 1`,
        { account },
      )
    )[0];
    if (last !== undefined) {
      const finished = last['finished'] === null ? 'still running or killed' : `finished ${formatInstant(Number(last['finished']))}`;
      // Where a run stopped short: the stage it failed in, or was in when it was killed (older runs have none).
      const stage = last['stage'] !== null && last['status'] !== 'done' ? ` at ${String(last['stage'])}` : '';
      lines.push(
        `  last run: ${String(last['command'])}, started ${formatInstant(Number(last['started']))}, ${finished}: ${String(last['status'])}${stage} (exit ${String(last['exit_code'] ?? '-')}) ${String(last['message'] ?? '')}`.trimEnd(),
      );
    }
    const requested = mergeWindows(
      (await query(warehouse, "SELECT epoch_ms(range_from) AS s, epoch_ms(range_to) AS e FROM runs WHERE account = $account AND range_from IS NOT NULL AND command <> 'export' AND command <> 'transform'", { account })).map(
        (r) => ({ start: Number(r['s']), end: Number(r['e']) }),
      ),
    );
    const coverage = await query(
      warehouse,
      `SELECT stream, partition, epoch_ms(window_start) AS s, epoch_ms(window_end) AS e, status, tie_pages FROM coverage WHERE account = $account`,
      { account },
    );
    const counts = new Map((await query(warehouse, 'SELECT stream, count(*) AS n FROM raw_records WHERE account = $account GROUP BY ALL', { account })).map((r) => [String(r['stream']), Number(r['n'])]));
    const learned = new Map((await query(warehouse, 'SELECT stream, window_ms FROM learned_windows WHERE account = $account', { account })).map((r) => [String(r['stream']), Number(r['window_ms'])]));
    for (const stream of STREAMS) {
      lines.push(`  ${stream.name}: ${counts.get(stream.name) ?? 0} records${learned.has(stream.name) ? `, window narrowed by the server to ${(learned.get(stream.name) as number) / 86_400_000} days` : ''}`);
      if (stream.kind !== 'paged') continue;
      for (const partition of stream.partitions) {
        const rows = coverage.filter((r) => r['stream'] === stream.name && r['partition'] === partition.name);
        const done = mergeWindows(rows.filter((r) => r['status'] === 'done').map((r) => ({ start: Number(r['s']), end: Number(r['e']) })));
        const open = rows.filter((r) => r['status'] !== 'done').length;
        const ties = rows.reduce((n, r) => n + Number(r['tie_pages']), 0);
        const gaps = requested.flatMap((w) => (w.start < now ? uncovered(w.start, Math.min(w.end, now), done) : []));
        const label = partition.name === '' ? '' : `${partition.name} `;
        lines.push(`    ${label}covered: ${done.length === 0 ? 'nothing' : done.map(span).join(', ')}`);
        if (gaps.length > 0) lines.push(`    ${label}gaps: ${gaps.map(span).join(', ')} (run again over this range to fill them)`);
        if (open > 0) lines.push(`    ${label}unfinished windows: ${open} (the next run resumes them)`);
        if (ties > 0) {
          lines.push(`    ${label}page breaks inside same-millisecond runs: ${ties} (ledgerpipe pages by id, which is exact; the live service has lost records at such breaks)`);
        }
      }
    }
    lines.push(...(await reconciliationLines(warehouse, account)));
    lines.push(...unreviewedLines(await warehouse.exclusive((c) => readUnreviewed(c, account)), '  '));
  }
  const catalog = (await query(warehouse, "SELECT version, epoch_ms(updated_at) AS at FROM model_versions WHERE name = 'type_catalog'"))[0];
  if (catalog !== undefined) lines.push(`type catalog of the last transform: ${String(catalog['version'])} (${formatInstant(Number(catalog['at']))})`);
  return lines;
}

/**
 * Year-end reconciliation for one account: per calendar year (UTC), the ledger's net movement per asset, next
 * to what the balance snapshots of that year show. The platform's balance endpoint values each account type
 * in USDT and gives no per-asset balances, so the snapshots are shown as a valuation beside the movements.
 */
export async function reconciliationLines(warehouse: Warehouse, account: string): Promise<string[]> {
  const hasLedger = (await query(warehouse, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ('ledger', 'account_balances')"))[0];
  if (Number(hasLedger?.['n'] ?? 0) < 2) return [];
  const movements = await query(
    warehouse,
    `SELECT year(timezone('UTC', ts)) AS yr, asset, lp_total(amount) AS net, count(*) AS entries
     FROM ledger WHERE account = $account GROUP BY ALL ORDER BY yr, asset`,
    { account },
  );
  const snapshots = await query(
    warehouse,
    `SELECT year(timezone('UTC', ts)) AS yr, epoch_ms(ts) AS snapshot_ms, lp_total(usdt_balance) AS total
     FROM account_balances WHERE account = $account GROUP BY ALL ORDER BY snapshot_ms`,
    { account },
  );
  const lines: string[] = [];
  for (const year of [...new Set(movements.map((m) => Number(m['yr'])))]) {
    lines.push(`  ${year} ledger movements: ${movements.filter((m) => Number(m['yr']) === year).map((m) => `${String(m['asset'])} ${String(m['net'])}`).join(', ')}`);
    const inYear = snapshots.filter((x) => Number(x['yr']) === year);
    if (inYear.length < 2) {
      lines.push(`  ${year} balance snapshots: ${inYear.length === 0 ? 'none' : 'one'} in this year, so no change to set beside the movements (a run takes one)`);
    } else {
      const first = inYear[0] as Record<string, unknown>;
      const last = inYear.at(-1) as Record<string, unknown>;
      lines.push(
        `  ${year} balance snapshots (USDT valuation of all account types): ${String(first['total'])} at ${formatInstant(Number(first['snapshot_ms']))}, ${String(last['total'])} at ${formatInstant(Number(last['snapshot_ms']))}; the platform gives no per-asset balances to check the movements against`,
      );
    }
  }
  return lines;
}
