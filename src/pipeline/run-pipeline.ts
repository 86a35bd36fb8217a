import { computeGains, type GainsResult } from '../gains/gains.js';
import { EXIT_STATUS } from '../errors/ledgerpipe-error.js';
import { UsageError } from '../errors/usage-error.js';
import { exportFiles, prepareOut, recoverExports, type ExportedFile, type ExportFormat } from '../export/exporter.js';
import { join } from 'node:path';
import { createIpBudget, DEFAULT_IP_LIMIT_PER_MINUTE, type IpBudget } from '../extract/ip-budget.js';
import { writeLake, type LakePartition } from '../export/lake.js';
import type { ManifestFacts } from '../export/manifest.js';
import { shardOf, type Shard } from './shard.js';
import type { ProgressReporter } from '../extract/progress.js';
import { assetBalances } from '../streams/asset-balances.js';
import { STREAMS } from '../streams/index.js';
import { OPEN_STATUSES } from '../streams/open-statuses.js';
import type { StreamDef } from '../streams/stream.js';
import { completenessOf, ensureHoldingsAt, findingsOf, mergeCompleteness, readCompletenessByAccount, readHoldings, readResiduals, type BotResult, type Completeness, type Holding, type OpenLoan } from '../warehouse/completeness.js';
import type { Window } from '../time/window.js';
import { runTransformStage, type TransformSummary } from '../transform/stage.js';
import { collectGarbage } from '../util/collect-garbage.js';
import { extractionMemoryBudget, summaryMemoryBudget, wholeLedgerMemoryBudget } from '../warehouse/memory-budget.js';
import { readCatalogVersion, readNotFinal, readReconciliation, type NotFinal, type Reconciliation } from '../warehouse/reports.js';
import { setRunStage, type RunEnd, type Stage } from '../warehouse/runs.js';
import { coverageOfRange, type StreamCoverage } from '../warehouse/coverage.js';
import { openWarehouse, type Warehouse } from '../warehouse/warehouse.js';
import { hasTables } from '../warehouse/tables.js';
import { withCheckpointsBetweenBatches } from '../warehouse/raw-writer.js';
import type { Pipeline } from './define.js';
import { accountIncomplete, extractAccounts, incompleteReason, type AccountResult, type ExtractStageOptions } from './extract-stage.js';
import { describeGaps } from './gaps.js';
import { failedEnd, finishRuns, startRunsForEveryAccount } from './run-rows.js';
import { prepareValuation, pricesBeside, pricesStage, withFiguresOf, type EarlyPrices, type ValuationOptions } from './prices-stage.js';
import type { PriceResult } from '../prices/extract-prices.js';
import { readUnpriced, type Unpriced } from '../prices/unpriced.js';
import { readPlausibility, type Implausible } from '../warehouse/plausibility.js';
import { readValuation, type Valuation } from '../warehouse/values.js';
import type { Settings } from '../models/settings.js';
import { periodSettings, settleSettings, type GivenSettings } from './settings.js';
import { currentSettings, recordedOrFirst, restoreBooks, snapshotBooks, type BooksSnapshot } from '../warehouse/settings.js';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { resolvePeriod, yearToDate, type Period, type RangeSpec } from '../time/period.js';
import { existsSync } from 'node:fs';
import { adoptEarlierExports } from '../export/earlier-exports.js';
import { findHistoryGaps, historyIncomplete, LOT_STREAMS, type HistoryFindings } from './history.js';
import { formatWindow } from '../time/window.js';

export type { AccountResult };

/** A run's options: those its extract stage reads (the pipeline, accounts, log, progress...), and these. */
export interface RunPipelineOptions extends Omit<ExtractStageOptions, 'range'> {
  dbPath: string;
  /** --out: the files go there as given. Without it, into `<exportsRoot>/<period>/` (docs/files.md, "A folder per period"). */
  out?: string;
  /** Where the periods' folders are made (default ./exports). */
  exportsRoot?: string;
  /** --year, --tax-year or --from/--to, read once the warehouse's time zone is known. */
  range?: RangeSpec;
  /** The settings the command gives (flags and config); the warehouse keeps the rest (docs/settings.md). */
  given?: GivenSettings;
  /** --streams, overriding the pipeline's. */
  streams?: readonly StreamDef[];
  /** --format, overriding the pipeline's. */
  formats?: readonly ExportFormat[];
  /** Make the models again whole from raw_records (docs/transform.md). */
  full?: boolean;
  /** Write the files even when a stream could not be read (its range a gap); without it, none are written. */
  allowGaps?: boolean;
  /** Where the prices stage reads candles (public, no key): the accounts' platform. */
  priceBaseUrl?: string;
  /** The ECB's data service, for a fiat valued through the euro (docs/values.md, "A fiat"; default the ECB's own). */
  ecbUrl?: string;
  /** --ip-limit: requests a minute per platform address over every account (default the live cap less 10%). */
  ipLimit?: number;
  /**
   * The state directory (util/state-dir.ts): the IP budget is then the machine's, shared through a file there with
   * every process reading the same address (docs/many-accounts.md, "One budget per machine"). Without it, the process's.
   */
  stateDir?: string;
  /** --lake: also write the tables as Hive-partitioned Parquet there; lakeMode: their files' mode. */
  lake?: string;
  lakeMode?: number;
  /** --shard: the part of the accounts this process runs (extracts, and writes to the lake). */
  shard?: Shard;
}

/** What one run works with once the warehouse is open: its options, the settled settings, its range and where its files go. */
interface Run {
  options: Omit<RunPipelineOptions, 'range'> & { range?: Window };
  settings: Settings;
  /** The period of --year, --tax-year or --from/--to; undefined for a run whose range comes from coverage (nightly). */
  period?: Period;
  /** --out, or the exports root whose period folder is decided at export. */
  out: { given: string } | { root: string };
}

export interface PipelineResult {
  accounts: AccountResult[];
  transform?: TransformSummary;
  /** Per account that the run extracted, its movements and balance snapshots by year (after a transform). */
  reconciliation: { account: string; years: Reconciliation }[];
  exports: ExportedFile[];
  /** Withdrawals and deposits of the range not final at its end (after a transform over a range). */
  notFinal: NotFinal[];
  /** The prices stage's requests and candles, when it ran. */
  prices?: PriceResult;
  /** Assets of the exported range with movements that have no value (a warning, not a gap). */
  unpriced: Unpriced[];
  /** Movements of the exported range far outside the account's scale, listed for review (docs/review.md). */
  plausibility?: Implausible[];
  /** The lake's partitions written (--lake). */
  lake?: LakePartition[];
  /** What proves the run's accounts complete or shows where they are not (after a transform), and their holdings. */
  completeness?: Completeness;
  /** The same, of every account the warehouse holds, by account: what each account's own files and report show. */
  completenessByAccount?: ReadonlyMap<string, Completeness>;
  holdings: Holding[];
  /** Beside the holdings: the open loans of the latest snapshot and the bots' residuals of the range (never booked). */
  residuals?: { loans: OpenLoan[]; bots: BotResult[] };
  /** Set when the run finished but is incomplete (quarantined records, gaps, breaks): exit 4. */
  incomplete?: string;
  /** The realized gains the export computed (tables disposals and lots). */
  gains?: GainsResult;
  /** Each stage's wall time in seconds (the extraction's includes the candles read beside it). */
  stageSeconds: Partial<Record<Stage, number>>;
  /** The period of --year, --tax-year or --from/--to. */
  period?: Period;
  /** The warehouse's settings the run worked with (docs/settings.md). */
  settings?: Settings;
  /** What the cost basis of the export's range lacks of the accounts' history (docs/history.md). */
  history?: HistoryFindings;
  /** What the export wrote: its period, its folder, and for a period to date the instant its records were read up to. */
  exported?: { period: Period; dir: string; readUpTo?: number; gainsFinalAt?: number };
}

function pipelineStreams(pipeline: Pipeline, override: readonly StreamDef[] | undefined): StreamDef[] {
  if (override !== undefined) return [...override];
  return pipeline.streams === 'all' ? [...STREAMS] : STREAMS.filter((s) => (pipeline.streams as string[]).includes(s.name));
}

/** The valuation the warehouse's settings say (docs/settings.md). */
function valuationOf(settings: Settings): ValuationOptions {
  return { fiat: settings.fiat, fiatSource: settings.fiatSource, timeZone: settings.timeZone };
}

function priceBaseUrl(options: Pick<RunPipelineOptions, 'priceBaseUrl' | 'accounts'>): string {
  const url = options.priceBaseUrl ?? options.accounts[0]?.baseUrl;
  if (url === undefined) throw new UsageError("prices need the platform's address: give --base-url or LEDGERPIPE_BASE_URL");
  return url;
}

/** What a run reads and prices: its range and the days its gains look past it (lookAhead), else what its extraction read. */
function readRange(run: Run, accounts: readonly AccountResult[]): Window {
  return run.options.range ?? runRange(run, accounts);
}

/** The range a run works on: --year, --tax-year or --from/--to, else what its extraction read. */
function runRange(run: Run, accounts: readonly AccountResult[]): Window {
  const ranges = accounts.map((a) => a.range);
  const range = run.period?.window ?? (ranges.length > 0 ? { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) } : undefined);
  if (range === undefined) throw new UsageError('this needs a range: give --year YYYY, --tax-year YYYY-YY, or --from and --to');
  return range;
}

/**
 * The platform's present as this run's extraction measured it (the latest of its accounts'), for the prices stage:
 * the platform has no candle of a later hour, as it has no record (docs/values.md, "Where prices come from").
 */
function platformPresent(accounts: readonly AccountResult[]): { present?: number } {
  return accounts.length === 0 ? {} : { present: Math.max(...accounts.map((a) => a.extract.present)) };
}

/** The export's period: the run's own, or its end year so far in the settings' time zone (the nightly's). */
function exportPeriod(run: Run, accounts: readonly AccountResult[]): Period {
  const range = runRange(run, accounts);
  const now = (run.options.clock ?? Date.now)();
  if (run.options.pipeline.export.range === 'year-to-date') return yearToDate(range.end, run.settings, now);
  return run.period ?? { window: range, folder: '', label: '', toDate: range.end > now };
}

/** Where the export's files go: --out as given, else the period's folder under the exports root. */
function exportsDir(run: Run, period: Period): string {
  return 'given' in run.out ? run.out.given : join(run.out.root, period.folder);
}

/** Runs one stage's work with every row of the run set to it; a failure ends those rows and is thrown on. */
type StageRunner = (name: Stage, work: () => Promise<void>) => Promise<void>;

/**
 * Runs a pipeline's stages on one warehouse, held open (and so locked) for the whole run: first its settings
 * are settled (what the command gives, else what the warehouse keeps: docs/settings.md) and its range read in
 * their time zone; then every account extracts side by side (each key has its own rate limits), then one
 * transform, then the exports, into the period's own folder. Each account's row in `runs` follows the stage it
 * is in and ends with the run.
 *
 * @example
 * await runPipeline({ pipeline: await loadPipeline('year-end'), accounts, dbPath, range: { kind: 'year', year: 2025 }, given: { fiat: 'EUR' }, log, progress });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const { pipeline } = options;
  const clock = options.clock ?? Date.now;
  const budget = runIpBudget(options, clock);
  // What has not happened is refused before a warehouse is made or a file touched (its settings are the defaults).
  if (options.range !== undefined && !existsSync(options.dbPath)) resolvePeriod(options.range, periodSettings(options.given ?? {}, undefined), clock());
  const warehouse = await openWarehouse(options.dbPath);
  // The rows of `runs` this run keeps up to date: one per account, each with the stage it is in.
  let runIds: string[] = [];
  const result: PipelineResult = { accounts: [], exports: [], reconciliation: [], notFinal: [], unpriced: [], holdings: [], stageSeconds: {} };
  const stage = stageRunner(warehouse, () => runIds, clock);
  /** Runs `work` and keeps its wall time as the stage's (what the bench sets beside the rate-limit bounds). */
  const timed = async <T>(name: Stage, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await work();
    result.stageSeconds[name] = (performance.now() - started) / 1000;
    return value;
  };
  // What the settings were: a command refused for its input (exit 2) changes none of them (docs/settings.md).
  let before: BooksSnapshot | undefined;
  try {
    before = await warehouse.exclusive(snapshotBooks);
    const run = await openRun(warehouse, options, clock);
    result.settings = run.settings;
    if (run.period !== undefined) result.period = run.period;
    // With a range known up front, candles are read beside the extraction, under the same per-IP budget.
    const early = pipeline.stages.includes('extract') && pipeline.stages.includes('prices') && run.period !== undefined ? startPricesBeside(warehouse, run, budget, clock) : undefined;
    let beside: PriceResult | undefined;
    // The candles beside follow what is loaded: a balance snapshot, which says the assets held, and each page of
    // records, whose assets are looked for there.
    const progress: ProgressReporter = early === undefined ? options.progress : {
      update: (account, stream, stats, window) => {
        options.progress.update(account, stream, stats, window);
        if (stream === assetBalances.name) early.snapshotLoaded();
        else if (window !== undefined) early.recordsLoaded(stream, window);
      },
      stop: () => options.progress.stop(),
    };
    const start = async () => {
      try {
        runIds = await startRuns(warehouse, { ...run, options: { ...run.options, progress } }, result, budget);
      } finally {
        beside = await early?.stop();
      }
    };
    await (pipeline.stages.includes('extract') ? timed('extract', start) : start());
    if (pipeline.stages.includes('transform')) await timed('transform', () => stage('transform', () => transformStage(warehouse, run, result)));
    if (pipeline.stages.includes('prices')) {
      await timed('prices', () => stage('prices', async () => {
        const baseUrl = priceBaseUrl(options);
        const after = await pricesStage(warehouse, {
          ...valuationOf(run.settings),
          baseUrl,
          ...(options.ecbUrl === undefined ? {} : { ecbUrl: options.ecbUrl }),
          command: options.command ?? `run ${pipeline.name}`,
          range: readRange(run, result.accounts),
          ...platformPresent(result.accounts),
          clock,
          rateScale: options.rateScale ?? 1,
          ipLimiter: budget.forAddress(baseUrl),
          log: options.log,
        });
        // The platform's answers decide how a fiat without a rates file is valued: the export values it the same way.
        if (after.fiat !== undefined) run.settings = { ...run.settings, fiatSource: after.fiat.source };
        result.settings = run.settings;
        // The summary counts every candle request of the run, those beside the extraction too.
        result.prices = beside === undefined ? after : withFiguresOf(after, beside);
      }));
    }
    // Without an export, the transform computes the gains itself, with the valuation the warehouse records.
    if (pipeline.stages.includes('transform') && !pipeline.stages.includes('export')) await gainsStage(warehouse, run, result, run.period?.window.end);
    const gapsText = pipeline.stages.includes('export') ? await timed('export', () => exportStage(warehouse, run, result, stage)) : undefined;
    const findings = completenessFindings(result);
    if (findings !== undefined) result.incomplete = [result.incomplete, findings].filter((t) => t !== undefined).join('; ');
    await warehouse.exclusive((c) => finishRuns(c, runIds, runEnds(result.accounts, [gapsText, findings].filter((t) => t !== undefined).join('; ') || undefined, clock)));
    return result;
  } catch (error) {
    const snapshot = before;
    if (snapshot !== undefined && error instanceof LedgerpipeError && error.exit === 'usage') {
      await warehouse.transaction((c) => restoreBooks(c, snapshot)).catch(() => undefined);
      await followValuation(warehouse, await warehouse.exclusive(currentSettings)).catch(() => undefined);
    }
    throw error;
  } finally {
    options.progress.stop();
    // What the machine's budget granted this process and it did not send is free for the next at once.
    await budget.close();
    await warehouse.close();
  }
}

/**
 * What the run works with: the settings settled (each change said in one line), the range read in their time
 * zone (one that has not begun is refused before anything is read), and where its files go, made ready now: a
 * folder that cannot be written is said before hours of extraction, and a set an earlier run left half written
 * is put right first.
 */
async function openRun(warehouse: Warehouse, options: RunPipelineOptions, clock: () => number): Promise<Run> {
  const { stages } = options.pipeline;
  const computesGains = stages.includes('export') || stages.includes('transform');
  const command = options.command ?? `run ${options.pipeline.name}`;
  // A range that has not begun, in the settings this command will have, is refused before they are written.
  if (options.range !== undefined) resolvePeriod(options.range, periodSettings(options.given ?? {}, await warehouse.exclusive(recordedOrFirst)), clock());
  const { settings, lines } = await settleSettings(warehouse, options.given ?? {}, { command, now: clock(), computesGains, transforms: stages.includes('transform') });
  for (const line of lines) options.log.info(line);
  // The views of values follow the settings at once, whatever the command: a transform given another fiat computes
  // its gains in it (docs/settings.md).
  await followValuation(warehouse, settings);
  const period = options.range === undefined ? undefined : resolvePeriod(options.range, settings, clock());
  if (options.range?.kind === 'year' && settings.taxYearStart !== '01-01') {
    const y = options.range.year;
    options.log.warn(`--year ${y} is the calendar year; the tax year starts on ${settings.taxYearStart} (the warehouse's tax-year start): for it, give --tax-year ${y - 1}-${String(y % 100).padStart(2, '0')} or ${y}-${String((y + 1) % 100).padStart(2, '0')}`);
  }
  // Read past the range as far as its gains look ahead (the UK rules' 30 days), the files staying the range's.
  const read = period === undefined ? undefined : { start: period.window.start, end: period.window.end + lookAhead(settings) };
  const out = options.out === undefined ? { root: options.exportsRoot ?? DEFAULT_EXPORTS_ROOT } : { given: options.out };
  if (stages.includes('export')) {
    if ('root' in out) {
      await prepareOut(out.root);
      // An earlier release wrote its one set at the root: put right if half written, then moved to its period's folder.
      await recoverExports(out.root);
      await adoptEarlierExports(out.root, settings.timeZone, options.log);
    }
    if (period !== undefined || 'given' in out) {
      const dir = 'given' in out ? out.given : join(out.root, (period as Period).folder);
      await prepareOut(dir);
      await recoverExports(dir);
    }
  }
  const { range: _spec, ...rest } = options;
  return { options: { ...rest, ...(read === undefined ? {} : { range: read }) }, settings, ...(period === undefined ? {} : { period }), out };
}

/** Remakes the views of values when they were made with another fiat, rates or time zone than `settings` say. */
async function followValuation(warehouse: Warehouse, settings: Settings): Promise<void> {
  const made = await warehouse.exclusive(async (c) => ((await hasTables(c, ['ledger'])) ? readValuation(c) : undefined));
  if (made !== undefined && (made.fiat !== settings.fiat || made.fiatSource !== settings.fiatSource || made.timeZone !== settings.timeZone)) {
    await prepareValuation(warehouse, valuationOf(settings));
  }
}

/** Where the periods' folders go without --out (docs/files.md, "A folder per period"). */
export const DEFAULT_EXPORTS_ROOT = './exports';

/**
 * Realized gains up to `end` (docs/gains.md): the tables disposals and lots, by the warehouse's cost basis. The UK
 * rules read the 30 days after it too (lookAhead), whose acquisitions match its last disposals.
 */
async function gainsStage(warehouse: Warehouse, run: Run, result: PipelineResult, end: number | undefined): Promise<void> {
  const { settings } = run;
  const ahead = lookAhead(settings);
  const until = end === undefined ? {} : ahead === 0 ? { until: end } : { until: end + ahead, openAt: end };
  const gains = { costBasis: settings.costBasis, pool: settings.pool, taxYearStart: settings.taxYearStart, withdrawals: settings.withdrawals, timeZone: settings.timeZone, ...until };
  result.gains = await warehouse.exclusive((c) => computeGains(c, gains));
}

/**
 * How far past a range its gains read: the UK rules match a disposal with the acquisitions of the 30 days after it
 * (HMRC CRYPTO22256, "bed and breakfasting"), so a UK run reads and computes 30 days past its range, and a later
 * run that reads them too finds the same disposals; other methods never look ahead.
 */
export function lookAhead(settings: Pick<Settings, 'costBasis'>): number {
  return settings.costBasis === 'uk' ? 30 * DAY_MS : 0;
}

const DAY_MS = 86_400_000;

/** The prices read beside the extraction (pricesBeside) of a run whose range is known before it extracts. */
function startPricesBeside(warehouse: Warehouse, run: Run, budget: IpBudget, clock: () => number): EarlyPrices {
  const baseUrl = priceBaseUrl(run.options);
  const range = run.options.range as Window;
  return pricesBeside(warehouse, { ...valuationOf(run.settings), baseUrl, range, clock, rateScale: run.options.rateScale ?? 1, ipLimiter: budget.forAddress(baseUrl), log: run.options.log });
}

/**
 * One budget per platform address for every request of the run, every account's and the candles', shared with the
 * machine's other processes when the state directory is given (docs/many-accounts.md).
 */
function runIpBudget(options: RunPipelineOptions, clock: () => number): IpBudget {
  return createIpBudget({
    perMinute: options.ipLimit ?? DEFAULT_IP_LIMIT_PER_MINUTE,
    rateScale: options.rateScale ?? 1,
    clock,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    ...(options.stateDir === undefined ? {} : { machine: { dir: options.stateDir, log: options.log } }),
  });
}

/** The StageRunner of a run whose rows in `runs` are those `runIds` returns when a stage starts. */
function stageRunner(warehouse: Warehouse, runIds: () => readonly string[], clock: () => number): StageRunner {
  return async (name, work) => {
    await warehouse.exclusive(async (c) => {
      for (const id of runIds()) await setRunStage(c, id, name);
    });
    try {
      await work();
    } catch (error) {
      await warehouse.exclusive((c) => finishRuns(c, runIds(), failedEnd(error, clock()))).catch(() => undefined);
      throw error;
    }
  };
}

/**
 * The run's first stage, and its rows in `runs`: the extraction, which starts a row per account it reads, or,
 * when the pipeline does not extract, a row for every account the warehouse holds. Returns the rows' ids.
 */
async function startRuns(warehouse: Warehouse, run: Run, result: PipelineResult, budget: IpBudget): Promise<string[]> {
  const { options } = run;
  const { pipeline } = options;
  if (pipeline.stages.includes('extract')) {
    // Every run that extracts reads the history the cost basis needs (docs/history.md), `extract` alone too, so
    // that the stages run one by one hold what the pipeline would; not with the history setting none.
    const { historyFrom } = run.settings;
    const history = historyFrom === 'none' ? {} : { history: { from: historyFrom } };
    // The failure is thrown from inside, so it is the one reported even if restoring the budget fails after it.
    result.accounts = await warehouse.withMemoryLimit(extractionMemoryBudget(), () =>
      withCheckpointsBetweenBatches(warehouse, () => extractAccounts(warehouse, { ...options, ...history }, pipelineStreams(pipeline, options.streams), budget)),
    );
    const runIds = result.accounts.map((a) => a.runId);
    options.progress.stop();
    const reason = incompleteReason(result.accounts);
    if (reason !== undefined) result.incomplete = reason;
    return runIds;
  }
  // A transform or export alone acts on every account the warehouse holds: each gets its row.
  const range = options.range === undefined ? {} : { from: options.range.start, to: options.range.end };
  const now = (options.clock ?? Date.now)();
  return warehouse.exclusive((c) => startRunsForEveryAccount(c, { command: options.command ?? `run ${pipeline.name}`, ...range, now, stage: pipeline.stages[0] as Stage }));
}

/**
 * The export, under the gap rule (docs/exit-codes.md, "The gap rule"): the coverage of the range is checked first; with a
 * gap, nothing is written unless --allow-gaps, and the run is incomplete either way. Returns the gaps' line.
 */
async function exportStage(warehouse: Warehouse, run: Run, result: PipelineResult, stage: StageRunner): Promise<string | undefined> {
  const { options, settings } = run;
  const period = exportPeriod(run, result.accounts);
  const range = period.window;
  const coverage = await rangeCoverage(warehouse, run, result, range, period.toDate);
  const gaps = coverage.filter((c) => c.gaps.length > 0).map((c) => ({ account: c.account, stream: c.stream, windows: c.gaps, unreachable: c.unreachable }));
  const gapsText = gaps.length === 0 ? undefined : describeGaps(gaps, { profiles: gaps.some((g) => g.account !== 'default') });
  const incomplete = (...more: string[]) => [result.incomplete, ...more].filter((t) => t !== undefined).join('; ');
  if (gapsText !== undefined && options.allowGaps !== true) {
    // Files of a range with a gap would read as complete: none are written unless the user asks.
    result.incomplete = incomplete(gapsText, 'no files were written (add --allow-gaps to write them with the gaps)');
    return gapsText;
  }
  if (gapsText !== undefined) result.incomplete = incomplete(gapsText);
  const valuation = await prepareValuation(warehouse, valuationOf(settings));
  await gainsStage(warehouse, run, result, range.end);
  const accounts = [...new Set(coverage.map((c) => c.account))];
  const checked = checkedStreams(options);
  // Where each account was read up to: this run's extraction, else the machine's now (as the gap rule).
  const readTo = new Map(result.accounts.map((a) => [a.account, a.extract.to]));
  result.history = await findHistoryGaps(warehouse, { accounts, range, settings, unit: result.gains?.unit ?? 'USDT', readUpTo: readTo, ...(checked === undefined ? {} : { streams: checked }) });
  const lacking = historyIncomplete(result.history, { label: period.label || formatWindow(range), settings });
  if (lacking !== undefined) result.incomplete = incomplete(lacking);
  // An export without a transform of its own reports what the last transform's views show.
  if (result.completeness === undefined) await readRunCompleteness(warehouse, run, result, range);
  result.unpriced = await readUnpriced(warehouse, range, valuation);
  // The findings of a range set each trade beside its legs and each refund beside a year of fees: over a busy year
  // they ran out of the warehouse's budget (docs/performance.md, "Memory"), so they get the whole ledger's.
  result.plausibility = await warehouse.withMemoryLimit(wholeLedgerMemoryBudget(), () => readPlausibility(warehouse, range));
  for (const u of result.unpriced) options.log.warn(`${u.entries} ${u.asset} movements of the range have no ${u.missing === 'usdt' ? 'USDT price' : `${u.missing} rate`}: their value is left empty (docs/values.md)`);
  const upTo = period.toDate ? readUpTo(coverage, range) : undefined;
  // The UK rules' last disposals are matched with acquisitions up to 30 days after the range: not final before
  // then, nor while those days are not read (an export alone of a warehouse read over its range only).
  const finalAt = range.end + lookAhead(settings);
  const ahead = finalAt > range.end ? await coverageOfRange(warehouse, { range: { start: range.end, end: finalAt }, now: (options.clock ?? Date.now)(), streams: LOT_STREAMS.map((s) => s.name) }) : [];
  const provisional = finalAt > range.end && (finalAt > (options.clock ?? Date.now)() || ahead.some((c) => c.gaps.length > 0)) ? { gainsFinalAt: finalAt } : {};
  result.exported = { period, dir: exportsDir(run, period), ...(upTo === undefined ? {} : { readUpTo: upTo }), ...provisional };
  const manifest: ManifestFacts = {
    timeZone: settings.timeZone,
    fiat: valuation.fiat,
    fiatSource: valuation.fiatSource,
    accounts,
    streams: [...new Set(coverage.map((c) => c.stream))],
    earliestReachable: result.history.earliestReachable,
    coverage,
    catalogVersion: (await readCatalogVersion(warehouse))?.version ?? null,
    ...(upTo === undefined ? {} : { toDate: { readUpTo: upTo } }),
    ...(result.completeness === undefined ? {} : { completeness: result.completeness }),
  };
  await stage('export', () => writeExports(warehouse, run, result, { dir: result.exported?.dir as string, period, valuation, manifest }));
  return gapsText;
}

/**
 * Where the records of a range that ends after the present were read up to: the earliest end of what every
 * stream of every account covers of it (the instant the period is "to date" to).
 */
function readUpTo(coverage: readonly StreamCoverage[], range: Window): number {
  const ends = coverage.map((c) => firstSpanEnd(c, range));
  return ends.length === 0 ? range.start : Math.min(...ends);
}

/**
 * The coverage of the export range the gap rule checks: up to where this run read, of the streams it names. An
 * export alone of a period to date is the period up to where its records were read: each account's streams up to
 * the latest instant all of them reached.
 */
async function rangeCoverage(warehouse: Warehouse, run: Run, result: PipelineResult, range: Window, toDate: boolean): Promise<StreamCoverage[]> {
  const { options } = run;
  const streams = checkedStreams(options);
  const now = (options.clock ?? Date.now)();
  const base = { range, now, ...(streams === undefined ? {} : { streams }) };
  // Where this run read up to (the platform's present); without an extraction, every account held.
  if (options.pipeline.stages.includes('extract')) return coverageOfRange(warehouse, { ...base, accounts: result.accounts.map((a) => ({ name: a.account, end: a.extract.to })) });
  const held = await coverageOfRange(warehouse, base);
  if (!toDate) return held;
  const accounts = [...new Set(held.map((c) => c.account))].map((name) => {
    // The latest instant a stream of the account was read up to from the range's start; nothing read: up to now.
    const reached = Math.max(...held.filter((c) => c.account === name).map((c) => firstSpanEnd(c, range)));
    return { name, end: reached > range.start ? reached : now };
  });
  return coverageOfRange(warehouse, { ...base, accounts });
}

/** Where a stream's reading of a range stopped: the end of its covered span from the range's start, else the start. */
const firstSpanEnd = (c: StreamCoverage, range: Window): number => c.covered.find((w) => w.start <= range.start)?.end ?? range.start;

/** The export stage's files: the run's set, each account's own tax files and report, and the lake (--lake). */
async function writeExports(
  warehouse: Warehouse,
  run: Run,
  result: PipelineResult,
  files: { dir: string; period: Period; valuation: Valuation; manifest: ManifestFacts },
): Promise<void> {
  const { options } = run;
  const { dir, period, valuation, manifest } = files;
  const range = period.window;
  const clock = options.clock ?? Date.now;
  const formats = options.formats ?? options.pipeline.export.formats;
  // The report alone is no set of files to describe: the manifest of the last export stays as it was.
  const described = formats.some((f) => f !== 'report') ? { manifest } : {};
  // The report of the set shows every account the warehouse holds, as its tables do.
  const byAccount = result.completenessByAccount;
  const completeness = byAccount === undefined ? {} : { completeness: completenessOf(byAccount) };
  const toDate = {
    ...(manifest.toDate === undefined ? {} : { toDate: manifest.toDate }),
    ...(period.taxYear === undefined ? {} : { taxYear: `tax year ${period.taxYear}` }),
    // Read once by the export stage: each report shows its account's.
    ...(result.plausibility === undefined ? {} : { plausibility: result.plausibility }),
  };
  if (run.period === undefined) {
    // The nightly's folder is known only now: made ready as --out's is before a run.
    await prepareOut(dir);
    await recoverExports(dir);
  }
  result.exports = await exportFiles(warehouse, { out: dir, from: range.start, to: range.end, formats, ...described, valuation, report: { coverage: manifest.coverage, ...completeness, ...toDate }, clock });
  // Neither Koinly's format nor CoinTracking's has an account column: with several accounts, each gets its
  // own tax files and report too, under <out>/accounts/<name>/, a set of files of its own.
  const own = formats.filter((f) => f === 'koinly' || f === 'cointracking' || f === 'report');
  if (manifest.accounts.length > 1 && own.length > 0) {
    for (const account of manifest.accounts) {
      const theirs = manifest.coverage.filter((c) => c.account === account);
      const theirCompleteness = manifest.completeness === undefined || byAccount === undefined ? undefined : completenessOf(byAccount, account);
      const completeness = theirCompleteness === undefined ? {} : { completeness: theirCompleteness };
      const facts = { ...manifest, accounts: [account], coverage: theirs, ...completeness };
      const written = await exportFiles(warehouse, {
        out: join(dir, 'accounts', account), from: range.start, to: range.end, formats: own,
        ...(own.some((f) => f !== 'report') ? { manifest: facts } : {}), valuation, report: { coverage: theirs, ...completeness, ...toDate }, account, clock,
      });
      result.exports.push(...written);
    }
  }
  if (options.lake !== undefined) result.lake = await writeRunLake(warehouse, run, result, { lake: options.lake, range, held: manifest.accounts });
}

/** The lake's partitions of this run's own accounts: those it extracted, else those it holds (of its shard). */
async function writeRunLake(warehouse: Warehouse, run: Run, result: PipelineResult, lake: { lake: string; range: Window; held: readonly string[] }): Promise<LakePartition[]> {
  const { options } = run;
  const { shard } = options;
  const held = shard === undefined ? undefined : lake.held.filter((a) => shardOf(a, shard.count) === shard.index);
  const accounts = options.pipeline.stages.includes('extract') ? { accounts: result.accounts.map((a) => a.account) } : held === undefined ? {} : { accounts: held };
  return writeLake(warehouse, { lake: lake.lake, range: lake.range, ...accounts, ...(options.lakeMode === undefined ? {} : { mode: options.lakeMode }), now: (options.clock ?? Date.now)() });
}

/** The streams the gap rule checks: those --streams or the pipeline names; undefined for every stream held. */
function checkedStreams(options: Pick<RunPipelineOptions, 'streams' | 'pipeline'>): string[] | undefined {
  if (options.streams !== undefined) return options.streams.map((s) => s.name);
  return options.pipeline.streams === 'all' ? undefined : [...options.pipeline.streams];
}

/** How each run of a pipeline that got to its end finishes: done, or incomplete with what is missing. */
function runEnds(accounts: readonly AccountResult[], gaps: string | undefined, clock: () => number): (runId: string) => RunEnd {
  const incomplete = new Map(accounts.map((a) => [a.runId, accountIncomplete(a)]));
  return (id) => {
    const what = [...(incomplete.get(id) ?? []), ...(gaps === undefined ? [] : [gaps])];
    return what.length > 0
      ? { status: 'incomplete', exitCode: EXIT_STATUS.incomplete, message: what.join('; '), now: clock() }
      : { status: 'done', exitCode: 0, message: 'ok', now: clock() };
  };
}

/** The transform, and what the summary shows of it: each extracted account's movements by year. */
async function transformStage(warehouse: Warehouse, run: Run, result: PipelineResult): Promise<void> {
  const { options } = run;
  // The transform is the run's memory peak: first drop what the extraction left dead in the JS heap.
  if (options.pipeline.stages.includes('extract')) collectGarbage();
  result.transform = await runTransformStage(warehouse, options.log, { full: options.full === true });
  const range = run.period?.window ?? (result.accounts.length > 0 ? exportPeriod(run, result.accounts).window : undefined);
  await warehouse.withMemoryLimit(summaryMemoryBudget(), async () => {
    for (const account of options.accounts) {
      const years = await readReconciliation(warehouse, account.name, run.settings);
      if (years !== undefined && years.movements.length > 0) result.reconciliation.push({ account: account.name, years });
    }
    if (range !== undefined) result.notFinal = await readNotFinal(warehouse, range, OPEN_STATUSES);
  });
  // Under the warehouse's own budget, not the summary's: the running-balance chains are windows over every record
  // that carries a balance (a busy year: 400k), beyond the summary's 64 MB.
  await readRunCompleteness(warehouse, run, result, range);
}

/** The completeness of the run's accounts (those it extracted, else every one), and their holdings at the range's ends. */
async function readRunCompleteness(warehouse: Warehouse, run: Run, result: PipelineResult, range: Window | undefined): Promise<void> {
  const ours = run.options.pipeline.stages.includes('extract') ? new Set(result.accounts.map((a) => a.account)) : undefined;
  const keep = (account: string) => ours === undefined || ours.has(account);
  const byAccount = await readCompletenessByAccount(warehouse);
  if (byAccount === undefined) return;
  result.completenessByAccount = byAccount;
  result.completeness = ours === undefined ? completenessOf(byAccount) : mergeCompleteness([...ours].map((a) => completenessOf(byAccount, a)));
  if (range === undefined) return;
  await ensureHoldingsAt(warehouse, [range.start, range.end]);
  result.holdings = (await readHoldings(warehouse, [range.start, range.end])).filter((h) => keep(h.account));
  const residuals = await readResiduals(warehouse, range);
  result.residuals = { loans: residuals.loans.filter((l) => keep(l.account)), bots: residuals.bots.filter((b) => keep(b.account)) };
}

/** The findings that make a finished run incomplete: breaks, sign mismatches and unexplained differences (docs/completeness.md, "Completeness"). */
function completenessFindings(result: PipelineResult): string | undefined {
  const c = result.completeness;
  if (c === undefined || findingsOf(c) === 0) return undefined;
  const parts = [
    ...(c.counts.breaks > 0 ? [`${c.counts.breaks} running-balance break${c.counts.breaks === 1 ? '' : 's'}`] : []),
    ...(c.counts.signMismatches > 0 ? [`${c.counts.signMismatches} type${c.counts.signMismatches === 1 ? '' : 's'} booked with the sign opposite to the balance's step`] : []),
    ...(c.unexplained.length > 0 ? [`${c.unexplained.length} unexplained difference${c.unexplained.length === 1 ? '' : 's'} between snapshots`] : []),
  ];
  const where = ['balance_breaks', ...(c.counts.signMismatches > 0 ? ['sign_mismatches'] : []), 'reconciliation'];
  return `${parts.join(' and ')}: records missing or misread; see ${where.slice(0, -1).join(', ')} and ${where.at(-1) as string} (docs/completeness.md, "Completeness")`;
}
