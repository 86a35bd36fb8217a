import { join } from 'node:path';
import { UsageError } from '../errors/usage-error.js';
import { adoptEarlierExports } from '../export/earlier-exports.js';
import { prepareOut, recoverExports, type ExportFormat } from '../export/exporter.js';
import type { Settings } from '../tables/settings.js';
import type { StreamDef } from '../streams/stream.js';
import { resolvePeriod, yearToDate, type Period, type RangeSpec } from '../time/period.js';
import type { Window } from '../time/window.js';
import type { Stage } from '../reads/runs.js';
import { recordedOrFirst } from '../warehouse/settings.js';
import { hasTables } from '../duckdb/tables.js';
import { readValuation } from '../warehouse/values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { AccountResult, ExtractStageOptions } from './extract-stage.js';
import { lookAhead } from './gains-stage.js';
import { prepareValuation, type ValuationOptions } from './prices-stage.js';
import { periodSettings, settleSettings, type GivenSettings } from './settings.js';
import type { Shard } from './shard.js';
import type { StagePlan } from './stage-plan.js';

/** A run's options: those its extract stage reads (the pipeline, accounts, log, progress...), and these. */
export interface RunPipelineOptions extends Omit<ExtractStageOptions, 'range'> {
  dbPath: string;
  /**
   * --out: the files go there as given. Without it, into `<exportsRoot>/<period>/` (docs/files.md, "A folder per
   * period").
   */
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
   * every process reading the same address (docs/many-accounts.md, "One budget per machine"). Without it, the
   * process's.
   */
  stateDir?: string;
  /** --lake: also write the tables as Hive-partitioned Parquet there; lakeMode: their files' mode. */
  lake?: string;
  lakeMode?: number;
  /** --shard: the part of the accounts this process runs (extracts, and writes to the lake). */
  shard?: Shard;
}

/**
 * What one run works with once the warehouse is open: its options, the settled settings, its range and where its
 * files go. The prices stage may settle how the fiat is valued: the stages after it get a Run with those settings.
 */
export interface Run {
  readonly options: Omit<RunPipelineOptions, 'range'> & { range?: Window };
  readonly settings: Settings;
  /** The period of --year, --tax-year or --from/--to; undefined for a run whose range comes from coverage (nightly). */
  readonly period?: Period;
  /** --out, or the exports root whose period folder is decided at export. */
  readonly out: { given: string } | { root: string };
}

/**
 * Runs one stage's work with every row of the run set to it, and gives what it made; a failure ends those rows and is
 * thrown on.
 */
export type StageRunner = <T>(name: Stage, work: () => Promise<T>) => Promise<T>;

/** Where the periods' folders go without --out (docs/files.md, "A folder per period"). */
export const DEFAULT_EXPORTS_ROOT = './exports';

/**
 * What the run works with: the settings settled (each change said in one line), the range read in their time
 * zone (one that has not begun is refused before anything is read), and where its files go, made ready now: a
 * folder that cannot be written is said before hours of extraction, and a set an earlier run left half written
 * is put right first.
 *
 * @example
 * const run = await openRun(warehouse, options, planStages(options.pipeline.stages), Date.now);
 */
export async function openRun(
  warehouse: Warehouse,
  options: RunPipelineOptions,
  plan: StagePlan,
  clock: () => number,
): Promise<Run> {
  const command = options.command ?? `run ${options.pipeline.name}`;
  // A range that has not begun, in the settings this command will have, is refused before they are written.
  if (options.range !== undefined)
    resolvePeriod(
      options.range,
      periodSettings(options.given ?? {}, await warehouse.exclusive(recordedOrFirst)),
      clock(),
    );
  const computesGains = plan.export || plan.transform;
  const { settings, lines } = await settleSettings(warehouse, options.given ?? {}, {
    command,
    now: clock(),
    computesGains,
    transforms: plan.transform,
  });
  for (const line of lines) options.log.info(line);
  // The views of values follow the settings at once, whatever the command: a transform given another fiat computes
  // its gains in it (docs/settings.md).
  await followValuation(warehouse, settings);
  const period = options.range === undefined ? undefined : resolvePeriod(options.range, settings, clock());
  if (options.range?.kind === 'year' && settings.taxYearStart !== '01-01') {
    const y = options.range.year;
    options.log.warn(
      `--year ${y} is the calendar year; the tax year starts on ${settings.taxYearStart} (the warehouse's tax-year start): for it, give --tax-year ${y - 1}-${String(y % 100).padStart(2, '0')} or ${y}-${String((y + 1) % 100).padStart(2, '0')}`,
    );
  }
  // Read past the range as far as its gains look ahead (the UK rules' 30 days), the files staying the range's.
  const read =
    period === undefined ? undefined : { start: period.window.start, end: period.window.end + lookAhead(settings) };
  const out =
    options.out === undefined ? { root: options.exportsRoot ?? DEFAULT_EXPORTS_ROOT } : { given: options.out };
  if (plan.export) await prepareExportsOut(out, period, settings, options);
  const { range: _spec, ...rest } = options;
  return {
    options: { ...rest, ...(read === undefined ? {} : { range: read }) },
    settings,
    ...(period === undefined ? {} : { period }),
    out,
  };
}

/** The export's folders made ready before the run reads anything (openRun). */
async function prepareExportsOut(
  out: Run['out'],
  period: Period | undefined,
  settings: Settings,
  options: RunPipelineOptions,
): Promise<void> {
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

/**
 * Remakes the views of values when they were made with another fiat, rates or time zone than `settings` say.
 *
 * @example
 * await followValuation(warehouse, await warehouse.exclusive(currentSettings));
 */
export async function followValuation(warehouse: Warehouse, settings: Settings): Promise<void> {
  const made = await warehouse.exclusive(async (c) =>
    (await hasTables(c, ['ledger'])) ? readValuation(c) : undefined,
  );
  if (
    made !== undefined &&
    (made.fiat !== settings.fiat || made.fiatSource !== settings.fiatSource || made.timeZone !== settings.timeZone)
  ) {
    await prepareValuation(warehouse, valuationOf(settings));
  }
}

/**
 * The valuation the warehouse's settings say (docs/settings.md).
 *
 * @example
 * await prepareValuation(warehouse, valuationOf(run.settings));
 */
export function valuationOf(settings: Settings): ValuationOptions {
  return { fiat: settings.fiat, fiatSource: settings.fiatSource, timeZone: settings.timeZone };
}

/**
 * Where the prices are read (public, no key): --base-url for a run without accounts, else the first account's platform.
 *
 * @example
 * const baseUrl = priceBaseUrl(run.options);
 */
export function priceBaseUrl(options: Pick<RunPipelineOptions, 'priceBaseUrl' | 'accounts'>): string {
  const url = options.priceBaseUrl ?? options.accounts[0]?.baseUrl;
  if (url === undefined)
    throw new UsageError("prices need the platform's address: give --base-url or LEDGERPIPE_BASE_URL");
  return url;
}

/**
 * The range a run works on: --year, --tax-year or --from/--to, else what its extraction read.
 *
 * @example
 * const range = runRange(run, extracted?.accounts ?? []);
 */
export function runRange(run: Run, accounts: readonly AccountResult[]): Window {
  const ranges = accounts.map((a) => a.range);
  const range =
    run.period?.window ??
    (ranges.length > 0
      ? { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) }
      : undefined);
  if (range === undefined)
    throw new UsageError('this needs a range: give --year YYYY, --tax-year YYYY-YY, or --from and --to');
  return range;
}

/**
 * The export's period: the run's own, or its end year so far in the settings' time zone (the nightly's).
 *
 * @example
 * const { window, folder } = exportPeriod(run, extracted?.accounts ?? []);
 */
export function exportPeriod(run: Run, accounts: readonly AccountResult[]): Period {
  const range = runRange(run, accounts);
  const now = (run.options.clock ?? Date.now)();
  if (run.options.pipeline.export.range === 'year-to-date') return yearToDate(range.end, run.settings, now);
  return run.period ?? { window: range, folder: '', label: '', toDate: range.end > now };
}
