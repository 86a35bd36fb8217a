import { UsageError } from '../errors/usage-error.js';
import { extract, type ExtractOptions, type ExtractResult } from '../extract/extractor.js';
import type { IpBudget } from '../extract/ip-budget.js';
import type { ProgressReporter } from '../extract/progress.js';
import type { RateLimiter } from '../extract/rate-limiter.js';
import { addStats, emptyStreamStats, totalStats, type StreamStats } from '../extract/stats.js';
import type { Account } from '../http/account.js';
import { createSignedClient } from '../http/client.js';
import type { StreamDef } from '../streams/stream.js';
import { formatWindow, type Window } from '../time/window.js';
import type { Logger } from '../util/logger.js';
import { finishRun, setRunStage, startRun } from '../reads/runs.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { Pipeline } from './define.js';
import type { HistoryFrom } from '../tables/settings.js';
import { planNightly, type PendingWindow } from './nightly-range.js';
import { failedEnd, finishRuns } from './run-rows.js';
import { firstCause } from '../errors/first-cause.js';

/** What the extract stage reads of a run's options (RunPipelineOptions holds these and the other stages'). */
export interface ExtractStageOptions {
  pipeline: Pipeline;
  /** The accounts to extract; only needed when the pipeline extracts. */
  accounts: readonly Account[];
  /** --year, --tax-year or --from/--to when given, read past its end as far as the gains look ahead (openRun). */
  range?: Window;
  log: Logger;
  progress: ProgressReporter;
  clock?: () => number;
  rateScale?: number;
  /** How the run is named in the runs table (default `run <pipeline>`). */
  command?: string;
  /** Read the streams that carry lots back to the account's opening, or to an instant (docs/history.md). */
  history?: { from: Exclude<HistoryFrom, 'none'> };
}

export interface AccountResult {
  account: string;
  range: Window;
  extract: ExtractResult;
  /** Its row in `runs`, finished when the whole pipeline is. */
  runId: string;
}

/**
 * The extract stage: every account side by side (each key has its own rate limits). Every account finishes or
 * fails first, each recording its own failure; then the failure that came first is thrown, passing over those
 * that are only the consequence of a fatal one (firstCause), and the accounts that were read have their rows
 * say whose failure stopped them.
 */
export async function extractAccounts(
  warehouse: Warehouse,
  options: ExtractStageOptions,
  streams: StreamDef[],
  budget: IpBudget,
): Promise<AccountResult[]> {
  const failures: { account: string; reason: unknown }[] = [];
  const settled = await Promise.allSettled(
    options.accounts.map((a) =>
      extractAccount(warehouse, a, options, streams, budget.forAddress(a.baseUrl)).catch((reason: unknown) => {
        failures.push({ account: a.name, reason });
        throw reason;
      }),
    ),
  );
  const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const first = firstCause(failures);
  if (first === undefined) return results;
  const { account, reason } = first;
  const because = `stopped: account ${account} failed: ${reason instanceof Error ? reason.message : String(reason)}`;
  const now = (options.clock ?? Date.now)();
  // Best effort: a database DuckDB gave up on refuses it too, and that must not hide why the run stopped.
  await warehouse
    .exclusive((c) =>
      finishRuns(
        c,
        results.map((r) => r.runId),
        { ...failedEnd(reason, now), message: because },
      ),
    )
    .catch(() => undefined);
  throw reason;
}

/** The range one account reads: the flags', or for nightly from its coverage, with the windows to read again. */
async function accountRange(
  warehouse: Warehouse,
  account: Account,
  options: ExtractStageOptions,
  streams: StreamDef[],
): Promise<{ range: Window; refresh: Window[]; extra: PendingWindow[] }> {
  const { pipeline } = options;
  if (pipeline.range.kind === 'flags' || options.range !== undefined) {
    if (options.range === undefined)
      throw new UsageError(
        `pipeline ${pipeline.name} needs a range: give --year YYYY, --tax-year YYYY-YY, or --from and --to`,
      );
    return { range: options.range, refresh: [], extra: [] };
  }
  const plan = await planNightly(warehouse, {
    account: account.name,
    copyTrading: account.copyTrading,
    streams,
    lookBackDays: pipeline.range.lookBackDays,
    now: (options.clock ?? Date.now)(),
    refreshPending: pipeline.range.refreshPendingWithdrawals,
  });
  return { range: plan.range, refresh: [plan.range], extra: plan.pendingWindows };
}

function merge(into: Record<string, StreamStats>, from: Record<string, StreamStats>): void {
  for (const [name, stats] of Object.entries(from)) into[name] = addStats(into[name] ?? emptyStreamStats(), stats);
}

/** One account's extraction: its range (flags or since coverage), its refreshes, its run row. */
async function extractAccount(
  warehouse: Warehouse,
  account: Account,
  options: ExtractStageOptions,
  streams: StreamDef[],
  ipLimiter: RateLimiter,
): Promise<AccountResult> {
  const clock = options.clock ?? Date.now;
  const { pipeline } = options;
  const { range, refresh, extra } = await accountRange(warehouse, account, options, streams);
  const runId = await warehouse.exclusive((c) =>
    startRun(c, {
      account: account.name,
      command: options.command ?? `run ${pipeline.name}`,
      from: range.start,
      to: range.end,
      now: clock(),
      stage: 'extract',
    }),
  );
  const client = createSignedClient({ baseUrl: account.baseUrl, credentials: account.credentials, clock });
  const base = {
    warehouse,
    client,
    account: account.name,
    ...(account.copyTrading === undefined ? {} : { copyTrading: account.copyTrading }),
    runId,
    clock,
    rateScale: options.rateScale ?? 1,
    // One set of limiters for this key across its extractions in this run (the re-reads come right after).
    limiters: new Map(),
    ipLimiter,
    log: options.log,
    onProgress: (stream: string, stats: StreamStats, window?: Window) =>
      options.progress.update(account.name, stream, stats, window),
  };
  try {
    const history = historyOption(options.history);
    const result = await extract({ ...base, streams, from: range.start, to: range.end, refresh, ...history });
    await readPendingAgain(base, streams, extra, result);
    result.total = totalStats(result.streams);
    const t = result.total;
    await warehouse.exclusive((c) =>
      setRunStage(c, runId, 'extract', {
        requests: t.requests,
        rateLimited: t.rateLimited,
        retries: t.retries,
        records: t.records,
      }),
    );
    return { account: account.name, range, extract: result, runId };
  } catch (error) {
    await warehouse.exclusive((c) => finishRun(c, runId, failedEnd(error, clock()))).catch(() => undefined);
    throw error;
  } finally {
    await client.close();
  }
}

/** The extraction's `history` option: the history's start as an instant, or the account's opening; none unasked. */
function historyOption(history: ExtractStageOptions['history']): Pick<ExtractOptions, 'history'> {
  return history === undefined
    ? {}
    : { history: { from: history.from === 'opening' ? ('opening' as const) : Date.parse(history.from) } };
}

/**
 * Windows outside the range that hold a pending withdrawal or deposit: read again so a changed status lands, their
 * stats and failures added to `result`'s.
 */
async function readPendingAgain(
  base: Omit<ExtractOptions, 'streams' | 'from' | 'to' | 'log'> & { log: Logger },
  streams: StreamDef[],
  extra: readonly { stream: string; window: Window }[],
  result: ExtractResult,
): Promise<void> {
  for (const { stream, window: w } of extra) {
    base.log.info(`${base.account}: reading ${stream} again ${formatWindow(w)} for records still pending`);
    const again = await extract({
      ...base,
      streams: streams.filter((s) => s.name === stream),
      from: w.start,
      to: w.end,
      refresh: [w],
      accountMode: result.accountMode,
    });
    merge(result.streams, again.streams);
    result.failures.push(...again.failures);
  }
}

/** What one account's extraction left incomplete, in a few words for its row in `runs`; empty when whole. */
export function accountIncomplete(a: AccountResult): string[] {
  const t = a.extract.total;
  return [
    ...a.extract.failures.map((f) => `${f.stream} not read: ${f.message}`),
    ...(t.quarantined > 0 ? [`${t.quarantined} records quarantined`] : []),
    ...(t.strayWindows > 0 ? [`${t.strayWindows} windows returned records none of which lay inside them`] : []),
  ];
}

/** Why a finished extraction is incomplete (exit 4), or undefined when it is whole. */
export function incompleteReason(accounts: readonly AccountResult[]): string | undefined {
  const who = (a: AccountResult, stream: string) => `${accounts.length > 1 ? `${a.account} ` : ''}${stream}`;
  const per = (count: (s: StreamStats) => number) =>
    accounts.flatMap((a) =>
      Object.entries(a.extract.streams)
        .filter(([, s]) => count(s) > 0)
        .map(([name, s]) => `${who(a, name)}: ${count(s)}`),
    );
  const reasons: string[] = [];
  for (const a of accounts) {
    for (const f of a.extract.failures)
      reasons.push(`${who(a, f.stream)} could not be read and its range is a gap: ${f.message}; run again to fill it`);
  }
  const quarantined = per((s) => s.quarantined);
  if (quarantined.length > 0) {
    reasons.push(
      `records that could not be loaded as they came were set aside in the quarantine table, each with its reason (${quarantined.join(', ')}); see them with: ledgerpipe query "SELECT stream, key, error FROM quarantine"`,
    );
  }
  const stray = per((s) => s.strayWindows);
  if (stray.length > 0) {
    reasons.push(
      `windows returned records of which none lay inside them (${stray.join(', ')}): the record times may be misread, so those windows stay unread; see the warnings above and report this`,
    );
  }
  return reasons.length === 0 ? undefined : reasons.join('; ');
}
