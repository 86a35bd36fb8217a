import type { Account } from '../cli/config.js';
import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { UsageError } from '../errors/usage-error.js';
import { extract, type ExtractResult } from '../extract/extractor.js';
import { addStats, emptyStreamStats, totalStats, type StreamStats } from '../extract/stats.js';
import type { Window } from '../time/window.js';
import { exportFiles, prepareOut, recoverExports, type ExportedFile, type ExportFormat } from '../export/exporter.js';
import { createSignedClient } from '../http/client.js';
import type { Logger } from '../util/logger.js';
import type { ProgressReporter } from '../cli/progress.js';
import { collectGarbage } from '../util/collect-garbage.js';
import { runTransformStage, type TransformSummary } from '../transform/stage.js';
import { STREAMS } from '../streams/index.js';
import type { StreamDef } from '../streams/stream.js';
import { parseInstant } from '../time/instant.js';
import { finishRun, setRunStage, startRun, type Stage } from '../warehouse/runs.js';
import { extractionMemoryBudget } from '../warehouse/memory-budget.js';
import { openWarehouse, type Warehouse } from '../warehouse/warehouse.js';
import type { Pipeline } from './define.js';
import { planNightly, type PendingWindow } from './nightly-range.js';
import { readReconciliation, type Reconciliation } from '../warehouse/reports.js';

export interface RunPipelineOptions {
  pipeline: Pipeline;
  /** The accounts to extract; only needed when the pipeline extracts. */
  accounts: readonly Account[];
  dbPath: string;
  out: string;
  /** --year or --from/--to, when given. */
  range?: Window;
  tz: string;
  /** --streams, overriding the pipeline's. */
  streams?: readonly StreamDef[];
  /** --format, overriding the pipeline's. */
  formats?: readonly ExportFormat[];
  log: Logger;
  progress: ProgressReporter;
  clock?: () => number;
  rateScale?: number;
  /** How the run is named in the runs table (default `run <pipeline>`). */
  command?: string;
  /** Write the files even when a stream could not be read (its range a gap); without it, none are written. */
  allowGaps?: boolean;
}

export interface AccountResult {
  account: string;
  range: Window;
  extract: ExtractResult;
  /** Its row in `runs`, finished when the whole pipeline is. */
  runId: string;
}

export interface PipelineResult {
  accounts: AccountResult[];
  transform?: TransformSummary;
  /** Per account and year, the ledger's movements per asset beside the balance snapshots (after a transform). */
  /** Per account that the run extracted, its movements and balance snapshots by year. */
  reconciliation: { account: string; years: Reconciliation }[];
  exports: ExportedFile[];
  /** Set when the run finished but is incomplete (quarantined records): exit 4. */
  incomplete?: string;
}

function pipelineStreams(pipeline: Pipeline, override: readonly StreamDef[] | undefined): StreamDef[] {
  if (override !== undefined) return [...override];
  return pipeline.streams === 'all' ? [...STREAMS] : STREAMS.filter((s) => (pipeline.streams as string[]).includes(s.name));
}

function merge(into: Record<string, StreamStats>, from: Record<string, StreamStats>): void {
  for (const [name, stats] of Object.entries(from)) into[name] = addStats(into[name] ?? emptyStreamStats(), stats);
}

/** One account's extraction: its range (flags or since coverage), its refreshes, its run row. */
async function extractAccount(warehouse: Warehouse, account: Account, options: RunPipelineOptions, streams: StreamDef[]): Promise<AccountResult> {
  const clock = options.clock ?? Date.now;
  const { pipeline } = options;
  let range: Window;
  let refresh: Window[] = [];
  let extra: PendingWindow[] = [];
  if (pipeline.range.kind === 'flags' || options.range !== undefined) {
    if (options.range === undefined) throw new UsageError(`pipeline ${pipeline.name} needs a range: give --year YYYY, or --from and --to`);
    range = options.range;
  } else {
    const plan = await planNightly(warehouse, {
      account: account.name,
      streams,
      lookBackDays: pipeline.range.lookBackDays,
      now: clock(),
      refreshPending: pipeline.range.refreshPendingWithdrawals,
    });
    range = plan.range;
    refresh = [plan.range];
    extra = plan.pendingWindows;
  }
  const runId = await warehouse.exclusive((c) =>
    startRun(c, { account: account.name, command: options.command ?? `run ${pipeline.name}`, from: range.start, to: range.end, now: clock(), stage: 'extract' }),
  );
  const client = createSignedClient({ baseUrl: account.baseUrl, credentials: account.credentials, clock });
  const base = {
    warehouse,
    client,
    account: account.name,
    runId,
    clock,
    rateScale: options.rateScale ?? 1,
    // One set of limiters for this key across its extractions in this run (the re-reads come right after).
    limiters: new Map(),
    log: options.log,
    onProgress: (stream: string, stats: StreamStats) => options.progress.update(account.name, stream, stats),
  };
  try {
    const result = await extract({ ...base, streams, from: range.start, to: range.end, refresh });
    // Windows outside the range that hold a pending withdrawal or deposit: read again so a changed status lands.
    for (const { stream, window: w } of extra) {
      options.log.info(`${account.name}: reading ${stream} again ${new Date(w.start).toISOString()} .. ${new Date(w.end).toISOString()} for records still pending`);
      const again = await extract({ ...base, streams: streams.filter((s) => s.name === stream), from: w.start, to: w.end, refresh: [w] });
      merge(result.streams, again.streams);
      result.failures.push(...again.failures);
    }
    result.total = totalStats(result.streams);
    const t = result.total;
    await warehouse.exclusive((c) => setRunStage(c, runId, 'extract', { requests: t.requests, rateLimited: t.rateLimited, retries: t.retries, records: t.records }));
    return { account: account.name, range, extract: result, runId };
  } catch (error) {
    await warehouse.exclusive((c) => finishRun(c, runId, failedEnd(error, clock()))).catch(() => undefined);
    throw error;
  } finally {
    await client.close();
  }
}

/** How a run that failed with `error` ends in `runs`. */
function failedEnd(error: unknown, now: number): Parameters<typeof finishRun>[2] {
  const e = error instanceof LedgerpipeError ? error : undefined;
  return {
    status: e?.exit === 'incomplete' ? 'incomplete' : 'failed',
    exitCode: EXIT_STATUS[e?.exit ?? 'unexpected'],
    message: error instanceof Error ? error.message : String(error),
    now,
  };
}

/** What one account's extraction left incomplete, in a few words for its row in `runs`; empty when whole. */
function accountIncomplete(a: AccountResult): string[] {
  const t = a.extract.total;
  return [
    ...a.extract.failures.map((f) => `${f.stream} not read: ${f.message}`),
    ...(t.quarantined > 0 ? [`${t.quarantined} records quarantined`] : []),
    ...(t.strayWindows > 0 ? [`${t.strayWindows} windows returned records none of which lay inside them`] : []),
  ];
}

/** Why a finished extraction is incomplete (exit 4), or undefined when it is whole. */
function incompleteReason(accounts: readonly AccountResult[]): string | undefined {
  const who = (a: AccountResult, stream: string) => `${accounts.length > 1 ? `${a.account} ` : ''}${stream}`;
  const per = (count: (s: StreamStats) => number) =>
    accounts.flatMap((a) => Object.entries(a.extract.streams).filter(([, s]) => count(s) > 0).map(([name, s]) => `${who(a, name)}: ${count(s)}`));
  const reasons: string[] = [];
  for (const a of accounts) {
    for (const f of a.extract.failures) reasons.push(`${who(a, f.stream)} could not be read and its range is a gap: ${f.message}; run again to fill it`);
  }
  const quarantined = per((s) => s.quarantined);
  if (quarantined.length > 0) {
    reasons.push(`records that could not be loaded as they came were set aside in the quarantine table, each with its reason (${quarantined.join(', ')}); see them with: ledgerpipe query "SELECT stream, key, error FROM quarantine"`);
  }
  const stray = per((s) => s.strayWindows);
  if (stray.length > 0) {
    reasons.push(`windows returned records of which none lay inside them (${stray.join(', ')}): the record times may be misread, so those windows stay unread; see the warnings above and report this`);
  }
  return reasons.length === 0 ? undefined : reasons.join('; ');
}

/** The export range: the run's own, or its end year so far in --tz. */
function exportRange(options: RunPipelineOptions, accounts: readonly AccountResult[]): Window {
  const ranges = accounts.map((a) => a.range);
  const run = options.range ?? (ranges.length > 0 ? { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) } : undefined);
  if (run === undefined) throw new UsageError('export needs a range: give --year YYYY, or --from and --to');
  if (options.pipeline.export.range === 'run') return run;
  const year = new Date(run.end - 1).toLocaleString('en-CA', { timeZone: options.tz, year: 'numeric' });
  return { start: parseInstant(`${year}-01-01`, options.tz), end: run.end };
}

/**
 * Runs a pipeline's stages on one warehouse, held open (and so locked) for the whole run: every account
 * extracts side by side (each key has its own rate limits), then one transform, then the exports.
 *
 * @example
 * await runPipeline({ pipeline: await loadPipeline('year-end'), accounts, dbPath, out, range, tz: 'UTC', log, progress });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const { pipeline } = options;
  const clock = options.clock ?? Date.now;
  const streams = pipelineStreams(pipeline, options.streams);
  if (pipeline.stages.includes('export')) {
    // A --out that cannot be written is said now, not after hours of extraction; and an export set an earlier
    // run left half renamed or half written is put right before anything else.
    await prepareOut(options.out);
    await recoverExports(options.out);
  }
  const warehouse = await openWarehouse(options.dbPath);
  // The rows of `runs` this run keeps up to date: one per account, each with the stage it is in.
  let runIds: string[] = [];
  const stage = async <T>(name: Stage, work: () => Promise<T>): Promise<T> => {
    await warehouse.exclusive(async (c) => {
      for (const id of runIds) await setRunStage(c, id, name);
    });
    try {
      return await work();
    } catch (error) {
      await warehouse
        .exclusive(async (c) => {
          for (const id of runIds) await finishRun(c, id, failedEnd(error, clock()));
        })
        .catch(() => undefined);
      throw error;
    }
  };
  try {
    const result: PipelineResult = { accounts: [], exports: [], reconciliation: [] };
    if (pipeline.stages.includes('extract')) {
      // Every account finishes or fails first (each records its own failure); the first failure is thrown from
      // inside, so that it is the one reported even if restoring the budget fails after it.
      result.accounts = await warehouse.withMemoryLimit(extractionMemoryBudget(), async () => {
        const settled = await Promise.allSettled(options.accounts.map((a) => extractAccount(warehouse, a, options, streams)));
        runIds = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.runId] : []));
        const failed = settled.findIndex((s) => s.status === 'rejected');
        if (failed >= 0) {
          const reason = (settled[failed] as PromiseRejectedResult).reason;
          // The accounts that were read stop because of another's failure: their rows say whose.
          const because = `stopped: account ${options.accounts[failed]?.name ?? '?'} failed: ${reason instanceof Error ? reason.message : String(reason)}`;
          await warehouse.exclusive(async (c) => {
            for (const id of runIds) await finishRun(c, id, { ...failedEnd(reason, clock()), message: because });
          });
          throw reason;
        }
        return settled.map((s) => (s as PromiseFulfilledResult<AccountResult>).value);
      });
      options.progress.stop();
      const reason = incompleteReason(result.accounts);
      if (reason !== undefined) result.incomplete = reason;
    } else {
      // A transform or export alone acts on every account the warehouse holds: each gets its row.
      const first = pipeline.stages[0] as Stage;
      runIds = await warehouse.exclusive(async (c) => {
        const accounts = (await c.runAndReadAll('SELECT DISTINCT account FROM raw_records ORDER BY 1')).getRows().map((r) => String(r[0]));
        const ids: string[] = [];
        for (const account of accounts) {
          ids.push(await startRun(c, { account, command: options.command ?? `run ${pipeline.name}`, ...(options.range === undefined ? {} : { from: options.range.start, to: options.range.end }), now: clock(), stage: first }));
        }
        return ids;
      });
    }
    if (pipeline.stages.includes('transform')) {
      await stage('transform', async () => {
        // The transform is the run's memory peak: first drop what the extraction left dead in the JS heap.
        if (pipeline.stages.includes('extract')) collectGarbage();
        result.transform = await runTransformStage(warehouse, options.log);
        for (const account of options.accounts) {
          const years = await readReconciliation(warehouse, account.name);
          if (years !== undefined && years.movements.length > 0) result.reconciliation.push({ account: account.name, years });
        }
      });
    }
    // A stream that could not be read, or windows left unread because their records' times were misread.
    const gaps = result.accounts.some((a) => a.extract.failures.length > 0 || a.extract.total.strayWindows > 0);
    if (pipeline.stages.includes('export') && gaps && options.allowGaps !== true) {
      // Files of a range with a gap would read as complete: none are written unless the user asks.
      result.incomplete = `${result.incomplete ?? 'the range has a gap'}; no files were written (add --allow-gaps to write them with the gap)`;
    } else if (pipeline.stages.includes('export')) {
      await stage('export', async () => {
        const range = exportRange(options, result.accounts);
        result.exports = await exportFiles(warehouse, { out: options.out, from: range.start, to: range.end, formats: options.formats ?? pipeline.export.formats });
      });
    }
    await warehouse.exclusive(async (c) => {
      const byRun = new Map(result.accounts.map((a) => [a.runId, accountIncomplete(a)]));
      for (const id of runIds) {
        const incomplete = byRun.get(id) ?? [];
        await finishRun(c, id, {
          status: incomplete.length > 0 ? 'incomplete' : 'done',
          exitCode: incomplete.length > 0 ? EXIT_STATUS.incomplete : 0,
          message: incomplete.length > 0 ? incomplete.join('; ') : 'ok',
          now: clock(),
        });
      }
    });
    return result;
  } finally {
    options.progress.stop();
    await warehouse.close();
  }
}
