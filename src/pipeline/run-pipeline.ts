import { existsSync } from 'node:fs';
import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import type { ExportedFile } from '../export/exporter.js';
import type { LakePartition } from '../export/lake.js';
import { createIpBudget, DEFAULT_IP_LIMIT_PER_MINUTE, type IpBudget } from '../extract/ip-budget.js';
import type { GainsResult } from '../gains/gains.js';
import type { Settings } from '../tables/settings.js';
import type { PriceResult } from '../prices/extract-prices.js';
import type { Unpriced } from '../prices/unpriced.js';
import { resolvePeriod, type Period } from '../time/period.js';
import type { BotResult, Completeness, Holding, OpenLoan } from '../reads/completeness.js';
import type { Implausible } from '../reads/plausibility.js';
import type { NotFinal, Reconciliation } from '../reads/reports.js';
import { setRunStage, type RunEnd, type Stage } from '../reads/runs.js';
import { currentSettings, restoreBooks, snapshotBooks, type BooksSnapshot } from '../warehouse/settings.js';
import { openWarehouse, type Warehouse } from '../warehouse/warehouse.js';
import type { TransformSummary } from '../transform/stage.js';
import { exportStage, type Exported } from './export-stage.js';
import { accountIncomplete, type AccountResult } from './extract-stage.js';
import { extractStage, type Extracted } from './extraction.js';
import { gainsStage } from './gains-stage.js';
import { completenessFindings, type RunCompleteness } from './run-completeness.js';
import { pricesOfRun, type Priced } from './run-prices.js';
import { failedEnd, finishRuns, startRunsForEveryAccount } from './run-rows.js';
import { followValuation, openRun, type Run, type RunPipelineOptions, type StageRunner } from './run.js';
import { periodSettings } from './settings.js';
import { planStages, type StagePlan } from './stage-plan.js';
import { transformStage, type Transformed } from './transform-stage.js';
import type { HistoryFindings } from './history.js';

export type { AccountResult, RunPipelineOptions };

/** What a run shows its user (the summary, the exit status): what its stages made, put together once they are done. */
export interface PipelineResult {
  accounts: AccountResult[];
  transform: TransformSummary | undefined;
  /** Per account that the run extracted, its movements and balance snapshots by year (after a transform). */
  reconciliation: { account: string; years: Reconciliation }[];
  exports: ExportedFile[];
  /** Withdrawals and deposits of the range not final at its end (after a transform over a range). */
  notFinal: NotFinal[];
  /** The prices stage's requests and candles, when it ran. */
  prices: PriceResult | undefined;
  /** Assets of the exported range with movements that have no value (a warning, not a gap). */
  unpriced: Unpriced[];
  /** Movements of the exported range far outside the account's scale, listed for review (docs/review.md). */
  plausibility: Implausible[] | undefined;
  /** The lake's partitions written (--lake). */
  lake: LakePartition[] | undefined;
  /** What proves the run's accounts complete or shows where they are not (after a transform), and their holdings. */
  completeness: Completeness | undefined;
  /** The same, of every account the warehouse holds, by account: what each account's own files and report show. */
  completenessByAccount: ReadonlyMap<string, Completeness> | undefined;
  holdings: Holding[];
  /** Beside the holdings: the open loans of the latest snapshot and the bots' residuals of the range (never booked). */
  residuals: { loans: OpenLoan[]; bots: BotResult[] } | undefined;
  /** Set when the run finished but is incomplete (quarantined records, gaps, breaks): exit 4. */
  incomplete: string | undefined;
  /** The realized gains the export computed (tables disposals and lots), or a transform without an export. */
  gains: GainsResult | undefined;
  /** Each stage's wall time in seconds (the extraction's includes the candles read beside it). */
  stageSeconds: Partial<Record<Stage, number>>;
  /** The period of --year, --tax-year or --from/--to. */
  period: Period | undefined;
  /** The warehouse's settings the run worked with (docs/settings.md). */
  settings: Settings;
  /** What the cost basis of the export's range lacks of the accounts' history (docs/history.md). */
  history: HistoryFindings | undefined;
  /**
   * What the export wrote: its period, its folder, and for a period to date the instant its records were read up to.
   */
  exported: Exported['written'];
}

/**
 * Runs a pipeline's stages on one warehouse, held open (and so locked) for the whole run: first its settings
 * are settled (what the command gives, else what the warehouse keeps: docs/settings.md) and its range read in
 * their time zone; then every account extracts side by side (each key has its own rate limits), then one
 * transform, then the prices, then the exports, into the period's own folder. Each stage returns what it made and
 * gets what it needs of the stages before it (runStages). Each account's row in `runs` follows the stage it is in
 * and ends with the run.
 *
 * @example
 * await runPipeline({ pipeline: await loadPipeline('year-end'), accounts, dbPath, range: { kind: 'year', year: 2025 }, given: { fiat: 'EUR' }, log, progress });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const clock = options.clock ?? Date.now;
  const budget = runIpBudget(options, clock);
  // What has not happened is refused before a warehouse is made or a file touched (its settings are the defaults).
  if (options.range !== undefined && !existsSync(options.dbPath))
    resolvePeriod(options.range, periodSettings(options.given ?? {}, undefined), clock());
  const warehouse = await openWarehouse(options.dbPath);
  // What the settings were: a command refused for its input (exit 2) changes none of them (docs/settings.md).
  let before: BooksSnapshot | undefined;
  try {
    before = await warehouse.exclusive(snapshotBooks);
    return await runStages(warehouse, options, { plan: planStages(options.pipeline.stages), budget, clock });
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
 * The stages of `plan`, in their order, each handed what it needs of those before it: the extraction's accounts,
 * the transform's completeness, the settings as the prices left them. Then the run's rows end: done, or incomplete
 * with what is missing.
 */
async function runStages(
  warehouse: Warehouse,
  options: RunPipelineOptions,
  context: { plan: StagePlan; budget: IpBudget; clock: () => number },
): Promise<PipelineResult> {
  const { plan, budget, clock } = context;
  const seconds: Partial<Record<Stage, number>> = {};
  /** Runs `work` and keeps its wall time as the stage's (what the bench sets beside the rate-limit bounds). */
  const timed = async <T>(name: Stage, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await work();
    seconds[name] = (performance.now() - started) / 1000;
    return value;
  };
  const run = await openRun(warehouse, options, plan, clock);
  const extracted = plan.extract
    ? await timed('extract', () => extractStage(warehouse, run, { budget, prices: plan.prices }))
    : undefined;
  const runIds =
    extracted === undefined
      ? await rowsForEveryAccount(warehouse, run, plan.first)
      : extracted.accounts.map((a) => a.runId);
  const stage = stageRunner(warehouse, runIds, clock);
  const transformed = plan.transform
    ? await timed('transform', () => stage('transform', () => transformStage(warehouse, run, extracted?.accounts)))
    : undefined;
  const priced = plan.prices
    ? await timed('prices', () => stage('prices', () => pricesOfRun(warehouse, run, { extracted, budget })))
    : undefined;
  // How the fiat is valued, as the prices stage found it, is what the stages after it value with.
  const valued: Run = priced === undefined ? run : { ...run, settings: priced.settings };
  // Without an export, the transform computes the gains itself, with the valuation the warehouse records.
  const gains =
    plan.transform && !plan.export ? await gainsStage(warehouse, valued.settings, run.period?.window.end) : undefined;
  const inputs = { extracted: extracted?.accounts, completeness: transformed?.completeness, stage };
  const exported = plan.export ? await timed('export', () => exportStage(warehouse, valued, inputs)) : undefined;
  const completeness = exported === undefined ? transformed?.completeness : exported.completeness;
  const findings = completenessFindings(completeness?.completeness);
  const ends = runEnds(extracted?.accounts ?? [], joined([exported?.gaps, findings]), clock);
  await warehouse.exclusive((c) => finishRuns(c, runIds, ends));
  const incomplete = joined([extracted?.incomplete, ...(exported?.incomplete ?? []), findings]);
  return resultOf({ run: valued, extracted, transformed, priced, gains, exported, completeness, incomplete, seconds });
}

/** The result a run shows, put together from what its stages made. */
function resultOf(made: {
  run: Run;
  extracted: Extracted | undefined;
  transformed: Transformed | undefined;
  priced: Priced | undefined;
  gains: GainsResult | undefined;
  exported: Exported | undefined;
  completeness: RunCompleteness | undefined;
  incomplete: string | undefined;
  seconds: Partial<Record<Stage, number>>;
}): PipelineResult {
  const { transformed, exported, completeness } = made;
  return {
    accounts: made.extracted?.accounts ?? [],
    transform: transformed?.summary,
    reconciliation: transformed?.reconciliation ?? [],
    exports: exported?.files ?? [],
    notFinal: transformed?.notFinal ?? [],
    prices: made.priced?.prices,
    unpriced: exported?.unpriced ?? [],
    plausibility: exported?.plausibility,
    lake: exported?.lake,
    completeness: completeness?.completeness,
    completenessByAccount: completeness?.byAccount,
    holdings: completeness?.holdings ?? [],
    residuals: completeness?.residuals,
    incomplete: made.incomplete,
    gains: exported?.gains ?? made.gains,
    stageSeconds: made.seconds,
    period: made.run.period,
    settings: made.run.settings,
    history: exported?.history,
    exported: exported?.written,
  };
}

/** The parts said, joined with "; " in their order; undefined when none is. */
function joined(parts: readonly (string | undefined)[]): string | undefined {
  return parts.filter((t) => t !== undefined).join('; ') || undefined;
}

/** A run that does not extract acts on every account the warehouse holds: each gets its row in `runs`, at `first`. */
async function rowsForEveryAccount(warehouse: Warehouse, run: Run, first: Stage): Promise<string[]> {
  const { options } = run;
  const range = options.range === undefined ? {} : { from: options.range.start, to: options.range.end };
  const now = (options.clock ?? Date.now)();
  return warehouse.exclusive((c) =>
    startRunsForEveryAccount(c, {
      command: options.command ?? `run ${options.pipeline.name}`,
      ...range,
      now,
      stage: first,
    }),
  );
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

/** The StageRunner of a run whose rows in `runs` are `runIds`. */
function stageRunner(warehouse: Warehouse, runIds: readonly string[], clock: () => number): StageRunner {
  return async (name, work) => {
    await warehouse.exclusive(async (c) => {
      for (const id of runIds) await setRunStage(c, id, name);
    });
    try {
      return await work();
    } catch (error) {
      await warehouse.exclusive((c) => finishRuns(c, runIds, failedEnd(error, clock()))).catch(() => undefined);
      throw error;
    }
  };
}

/** How each run of a pipeline that got to its end finishes: done, or incomplete with what is missing. */
function runEnds(
  accounts: readonly AccountResult[],
  gaps: string | undefined,
  clock: () => number,
): (runId: string) => RunEnd {
  const incomplete = new Map(accounts.map((a) => [a.runId, accountIncomplete(a)]));
  return (id) => {
    const what = [...(incomplete.get(id) ?? []), ...(gaps === undefined ? [] : [gaps])];
    return what.length > 0
      ? { status: 'incomplete', exitCode: EXIT_STATUS.incomplete, message: what.join('; '), now: clock() }
      : { status: 'done', exitCode: 0, message: 'ok', now: clock() };
  };
}
