import { readGainsStatus, type GainsStatus } from '../gains/gains.js';
import { SETTING_LABELS, SETTING_NAMES } from '../tables/settings.js';
import { recordedOrFirst, settingValues, type RecordedSettings } from '../warehouse/settings.js';
import { missingHours } from '../prices/extract-prices.js';
import { MISSING_REASON } from '../prices/span-writer.js';
import { STREAMS } from '../streams/index.js';
import { OPEN_STATUSES } from '../streams/open-statuses.js';
import { streamsOf, type PagedStreamDef } from '../streams/stream.js';
import { readAccountModes } from '../reads/account-modes.js';
import { formatInstant } from '../time/instant.js';
import { formatWindow, mergeWindows, uncovered, type Window } from '../time/window.js';
import { readUnreviewed } from '../transform/unreviewed.js';
import { notFinalLines, unreviewedLines } from './summary.js';
import {
  readAccountReport,
  readAccounts,
  readCatalogVersion,
  readNotFinal,
  readReconciliation,
  type AccountReport,
  type LastRun,
  type Reconciliation,
} from '../reads/reports.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { completenessOf, readCompletenessByAccount, readHoldings, readResiduals } from '../reads/completeness.js';
import { completenessLines, holdingsLines, residualLines } from './completeness-lines.js';

/**
 * What `status` prints: per account and stream, the covered ranges, the gaps inside the history runs asked
 * for (up to `now`: what has not happened yet is no gap), unfinished windows, page breaks inside
 * same-millisecond runs, rows, learned windows and the last run.
 */
export async function statusLines(warehouse: Warehouse, now: number = Date.now()): Promise<string[]> {
  const accounts = await readAccounts(warehouse);
  const recorded = await warehouse.exclusive(recordedOrFirst);
  const settings = settingsLines(recorded);
  if (accounts.length === 0)
    return [
      'the warehouse is empty: no run has extracted anything yet',
      ...settings,
      ...(await candleGapLines(warehouse)),
    ];
  const lines: string[] = [...settings];
  const completenessByAccount = await readCompletenessByAccount(warehouse);
  const modes = await warehouse.exclusive(readAccountModes);
  for (const account of accounts) {
    const report = await readAccountReport(warehouse, account);
    // The streams of the account's kind (docs/unified-accounts.md): a unified account's are the v3 ones.
    const mode = modes.get(account) ?? 'classic';
    lines.push(
      `account ${account}${mode === 'uta' ? ' (a unified trading account)' : ''}`,
      ...lastRunLines(report.lastRun),
    );
    const requested = mergeWindows(report.requested);
    // A stream read only where the config asks (copy trading) is listed where it was read.
    for (const stream of streamsOf(STREAMS, mode).filter(
      (s) => s.kind !== 'paged' || s.optIn === undefined || report.coverage.some((r) => r.stream === s.name),
    )) {
      const learned = report.learnedWindowMs.get(stream.name);
      lines.push(
        `  ${stream.name}: ${report.recordsByStream.get(stream.name) ?? 0} records${learned === undefined ? '' : `, window narrowed by the server to ${learned / 86_400_000} days`}`,
      );
      if (stream.kind === 'paged') lines.push(...coverageLines(stream, report, requested, now));
    }
    lines.push(...reconciliationLines(await readReconciliation(warehouse, account, settingValues(recorded))));
    const lastRange = report.lastRun?.range;
    const holdings =
      lastRange === null || lastRange === undefined
        ? undefined
        : await readHoldings(warehouse, [lastRange.start, lastRange.end], account);
    if (completenessByAccount !== undefined)
      lines.push(...completenessLines(completenessOf(completenessByAccount, account), holdings).map((l) => `  ${l}`));
    if (holdings !== undefined) lines.push(...holdingsLines(holdings).map((l) => `  ${l}`));
    lines.push(...residualLines(await readResiduals(warehouse, undefined, account)).map((l) => `  ${l}`));
    if (lastRange !== null && lastRange !== undefined)
      lines.push(...notFinalLines(await readNotFinal(warehouse, lastRange, OPEN_STATUSES, account), '  '));
    lines.push(...unreviewedLines(await warehouse.exclusive((c) => readUnreviewed(c, account)), '  '));
    lines.push(...gainsStatusLines(await warehouse.exclusive((c) => readGainsStatus(c, account))));
  }
  lines.push(...(await candleGapLines(warehouse)));
  const catalog = await readCatalogVersion(warehouse);
  if (catalog !== undefined)
    lines.push(`type catalog of the last transform: ${catalog.version} (${formatInstant(catalog.at)})`);
  return lines;
}

/** The warehouse's settings, each with when and by which command it was set (docs/settings.md). */
export function settingsLines(recorded: RecordedSettings | undefined): string[] {
  if (recorded === undefined) return [];
  const width = Math.max(...SETTING_NAMES.map((n) => SETTING_LABELS[n].length));
  return [
    'settings (kept by the warehouse; a flag that differs changes them):',
    ...SETTING_NAMES.map((name) => {
      const s = recorded[name];
      const value =
        s.value === null
          ? 'none'
          : name === 'catalogVersion' || name === 'openingLotsSha256'
            ? String(s.value).slice(0, 12)
            : String(s.value);
      const how =
        s.setBy === null ? 'default' : `set ${s.setAt === null ? '' : `${formatInstant(s.setAt)} `}by ${s.setBy}`;
      return `  ${SETTING_LABELS[name].padEnd(width)}  ${value} (${how})`;
    }),
  ];
}

/** The realized gains of the last export, and the disposals nothing matched (docs/gains.md). */
function gainsStatusLines(gains: GainsStatus | undefined): string[] {
  if (gains === undefined) return [];
  const lines = [
    `  realized gains of the last export (${gains.costBasis}, in ${gains.unit}): ${gains.slices} disposal slices`,
  ];
  if (gains.unmatched.length === 0) return lines;
  const assets = gains.unmatched.map((u) => `${u.asset} ${u.quantity} in ${u.slices}`).join(', ');
  return [
    ...lines,
    `    disposed of with no acquisition to match (zero cost, flagged no_acquisition): ${assets}; give --opening-lots (docs/gains.md)`,
  ];
}

function lastRunLines(last: LastRun | undefined): string[] {
  if (last === undefined) return [];
  const finished = last.finished === null ? 'still running or killed' : `finished ${formatInstant(last.finished)}`;
  // Where a run stopped short: the stage it failed in, or was in when it was killed (older runs have none).
  const stage = last.stage !== null && last.status !== 'done' ? ` at ${last.stage}` : '';
  return [
    `  last run: ${last.command}, started ${formatInstant(last.started)}, ${finished}: ${last.status}${stage} (exit ${last.exitCode ?? '-'}) ${last.message ?? ''}`.trimEnd(),
  ];
}

/** Per partition of a paged stream: what is covered, the gaps in what runs asked for, unfinished windows, ties. */
function coverageLines(
  stream: PagedStreamDef,
  report: AccountReport,
  requested: readonly Window[],
  now: number,
): string[] {
  const lines: string[] = [];
  // A copy stream's partitions are the projects it was read for, as its coverage names them.
  const partitions =
    stream.optIn === 'copyProjects'
      ? [...new Set(report.coverage.filter((r) => r.stream === stream.name).map((r) => r.partition))].map((name) => ({
          name,
        }))
      : stream.partitions;
  for (const partition of partitions) {
    const rows = report.coverage.filter((r) => r.stream === stream.name && r.partition === partition.name);
    const done = mergeWindows(rows.filter((r) => r.done).map((r) => r.window));
    const open = rows.filter((r) => !r.done).length;
    const ties = rows.reduce((n, r) => n + r.tiePages, 0);
    const gaps = requested.flatMap((w) => (w.start < now ? uncovered(w.start, Math.min(w.end, now), done) : []));
    const label = partition.name === '' ? '' : `${partition.name} `;
    lines.push(`    ${label}covered: ${done.length === 0 ? 'nothing' : done.map(formatWindow).join(', ')}`);
    if (gaps.length > 0)
      lines.push(`    ${label}gaps: ${gaps.map(formatWindow).join(', ')} (run again over this range to fill them)`);
    if (open > 0) lines.push(`    ${label}unfinished windows: ${open} (the next run resumes them)`);
    if (ties > 0) {
      lines.push(
        `    ${label}page breaks inside same-millisecond runs: ${ties} (ledgerpipe pages by id, which is exact; the live service has lost records at such breaks)`,
      );
    }
  }
  return lines;
}

/**
 * The ledger's net movement per asset of each calendar year (UTC), for one account. What the per-asset balances
 * prove of them is the completeness block's (docs/completeness.md).
 */
/** The hours of candles the platform did not serve, asked twice (price_coverage.missing_hours): one line per symbol. */
async function candleGapLines(warehouse: Warehouse): Promise<string[]> {
  return (await missingHours(warehouse, { start: 0, end: Number.MAX_SAFE_INTEGER })).map(
    (gap) =>
      `candles missing: ${gap.symbol}, ${gap.hours.length} hour${gap.hours.length === 1 ? '' : 's'} (${gap.hours.slice(0, 3).map(formatInstant).join(', ')}${gap.hours.length > 3 ? ', ...' : ''}): ${MISSING_REASON}`,
  );
}

export function reconciliationLines(reconciliation: Reconciliation | undefined): string[] {
  if (reconciliation === undefined) return [];
  const { movements } = reconciliation;
  return [...new Set(movements.map((m) => m.year))].map(
    (year) =>
      `  ${year} ledger movements: ${movements
        .filter((m) => m.year === year)
        .map((m) => `${m.asset} ${m.net}`)
        .join(', ')}`,
  );
}
