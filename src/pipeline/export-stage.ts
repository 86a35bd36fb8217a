import { join } from 'node:path';
import type { GainsResult } from '../gains/gains.js';
import {
  exportBudget,
  exportFiles,
  prepareOut,
  recoverExports,
  type ExportedFile,
  type ExportFormat,
} from '../export/exporter.js';
import type { ReportFacts } from '../report/report.js';
import { writeLake, type LakePartition } from '../export/lake.js';
import type { ManifestFacts } from '../export/manifest.js';
import { readUnpriced, type Unpriced } from '../prices/unpriced.js';
import type { Period } from '../time/period.js';
import { formatWindow, type Window } from '../time/window.js';
import { completenessOf, type Completeness } from '../reads/completeness.js';
import { coverageOfRange, type StreamCoverage } from '../reads/coverage.js';
import { readPlausibility, type Implausible } from '../reads/plausibility.js';
import { wholeLedgerMemoryBudget } from '../duckdb/memory-budget.js';
import { readCatalogVersion } from '../reads/reports.js';
import { type Valuation } from '../warehouse/values.js';
import { RANGE_VALUED, withRangeValued } from '../reads/range-valued.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { AccountResult } from './extract-stage.js';
import { gainsStage, lookAhead } from './gains-stage.js';
import { describeGaps } from './gaps.js';
import { findHistoryGaps, historyIncomplete, LOT_STREAMS, type HistoryFindings } from './history.js';
import { prepareValuation } from './prices-stage.js';
import { exportPeriod, valuationOf, type Run, type RunPipelineOptions, type StageRunner } from './run.js';
import { readRunCompleteness, type RunCompleteness } from './run-completeness.js';
import { shardOf } from './shard.js';

/** What the export stage made: under the gap rule, the gains, what the history lacks, and the files. */
export interface Exported {
  /** The gaps of the range, in one line (docs/exit-codes.md, "The gap rule"); the run's rows end with it. */
  gaps: string | undefined;
  /**
   * What makes the run incomplete, in the order said: the gaps (and that no files were written), the history lacking.
   */
  incomplete: string[];
  /** The completeness the files describe: the transform's, else read by the export (undefined without the views). */
  completeness: RunCompleteness | undefined;
  /** The realized gains computed for the range (tables disposals and lots); none when a gap stopped the export. */
  gains: GainsResult | undefined;
  /** What the cost basis of the range lacks of the accounts' history (docs/history.md). */
  history: HistoryFindings | undefined;
  /** Assets of the range with movements that have no value (a warning, not a gap). */
  unpriced: Unpriced[];
  /** Movements of the range far outside the account's scale, listed for review (docs/review.md). */
  plausibility: Implausible[] | undefined;
  /** Its period, its folder, and for a period to date the instant its records were read up to. */
  written: { period: Period; dir: string; readUpTo?: number; gainsFinalAt?: number } | undefined;
  /** The files written, the run's set and each account's own. */
  files: ExportedFile[];
  /** The lake's partitions written (--lake). */
  lake: LakePartition[] | undefined;
}

/** What the export stage takes of the stages before it. */
export interface ExportInputs {
  /** The extract stage's accounts; undefined when the run did not extract (every account held is exported). */
  extracted: readonly AccountResult[] | undefined;
  /** The transform stage's completeness, when it ran and found the views. */
  completeness: RunCompleteness | undefined;
  /** Sets the run's rows to `export` while the files are written. */
  stage: StageRunner;
}

/**
 * The export, under the gap rule (docs/exit-codes.md, "The gap rule"): the coverage of the range is checked first;
 * with a gap, nothing is written unless --allow-gaps, and the run is incomplete either way. Then the gains of the
 * range, what its history lacks, and the files.
 *
 * @example
 * const exported = await exportStage(warehouse, run, { extracted: extracted?.accounts, completeness: transformed?.completeness, stage });
 */
export async function exportStage(warehouse: Warehouse, run: Run, inputs: ExportInputs): Promise<Exported> {
  const { options, settings } = run;
  const period = exportPeriod(run, inputs.extracted ?? []);
  const range = period.window;
  const coverage = await rangeCoverage(warehouse, run, inputs.extracted, range, period.toDate);
  const gaps = gapsOf(coverage);
  // Files of a range with a gap would read as complete: none are written unless the user asks.
  if (gaps !== undefined && options.allowGaps !== true) return nothingWritten(gaps, inputs.completeness);
  const valuation = await prepareValuation(warehouse, valuationOf(settings));
  const gains = await gainsStage(warehouse, settings, range.end);
  const history = await historyOfRange(warehouse, run, {
    extracted: inputs.extracted,
    coverage,
    range,
    unit: gains.unit,
  });
  const lacking = historyIncomplete(history, { label: period.label || formatWindow(range), settings });
  // An export without a transform of its own reports what the last transform's views show.
  const completeness =
    inputs.completeness ??
    (await readRunCompleteness(
      warehouse,
      inputs.extracted?.map((a) => a.account),
      range,
    ));
  // The range's valued rows, made once for every read of them below, at the budget the export's files take.
  const { unpriced, plausibility, written, manifest, files } = await withRangeValued(
    warehouse,
    range,
    async () => {
      const unpriced = await readUnpriced(warehouse, range, valuation, undefined, RANGE_VALUED);
      // The findings of a range set each trade beside its legs and each refund beside a year of fees: over a busy
      // year they ran out of the warehouse's budget (docs/performance.md, "Memory"), so they get the whole ledger's.
      const plausibility = await warehouse.withMemoryLimit(wholeLedgerMemoryBudget(), () =>
        readPlausibility(warehouse, range),
      );
      for (const u of unpriced)
        options.log.warn(
          `${u.entries} ${u.asset} movements of the range have no ${u.missing === 'usdt' ? 'USDT price' : `${u.missing} rate`}: their value is left empty (docs/values.md)`,
        );
      const written = await whereWritten(warehouse, run, coverage, period);
      const manifest = await manifestFacts(warehouse, run, { valuation, coverage, history, written, completeness });
      const files = await inputs.stage('export', () =>
        writeExports(warehouse, run, {
          dir: written.dir,
          period,
          valuation,
          manifest,
          byAccount: completeness?.byAccount,
          plausibility,
        }),
      );
      return { unpriced, plausibility, written, manifest, files };
    },
    exportBudget(formatsOf(run)),
  );
  // The lake's files are the typed tables: written once the valued rows are dropped, which would hold memory.
  const lakeDir = options.lake;
  const lake =
    lakeDir === undefined
      ? undefined
      : await inputs.stage('export', () =>
          writeRunLake(warehouse, run, inputs.extracted, { lake: lakeDir, range, held: manifest.accounts }),
        );
  const incomplete = [...(gaps === undefined ? [] : [gaps]), ...(lacking === undefined ? [] : [lacking])];
  return { gaps, incomplete, completeness, gains, history, unpriced, plausibility, written, files, lake };
}

/** The formats the run's files are written in: its --format, else its pipeline's. */
const formatsOf = (run: Run): readonly ExportFormat[] => run.options.formats ?? run.options.pipeline.export.formats;

/** The export stopped by a gap of the range (without --allow-gaps): no gains, no files, and the run incomplete. */
function nothingWritten(gaps: string, completeness: RunCompleteness | undefined): Exported {
  const incomplete = [gaps, 'no files were written (add --allow-gaps to write them with the gaps)'];
  return {
    gaps,
    incomplete,
    completeness,
    gains: undefined,
    history: undefined,
    unpriced: [],
    plausibility: undefined,
    written: undefined,
    files: [],
    lake: undefined,
  };
}

/** What the manifest says of the files: the settings, the accounts and streams covered, and their coverage. */
async function manifestFacts(
  warehouse: Warehouse,
  run: Run,
  found: {
    valuation: Valuation;
    coverage: StreamCoverage[];
    history: HistoryFindings;
    written: { readUpTo?: number };
    completeness: RunCompleteness | undefined;
  },
): Promise<ManifestFacts> {
  const { valuation, coverage, history, written, completeness } = found;
  return {
    timeZone: run.settings.timeZone,
    fiat: valuation.fiat,
    fiatSource: valuation.fiatSource,
    accounts: [...new Set(coverage.map((c) => c.account))],
    streams: [...new Set(coverage.map((c) => c.stream))],
    earliestReachable: history.earliestReachable,
    coverage,
    catalogVersion: (await readCatalogVersion(warehouse))?.version ?? null,
    ...(written.readUpTo === undefined ? {} : { toDate: { readUpTo: written.readUpTo } }),
    ...(completeness === undefined ? {} : { completeness: completeness.completeness }),
  };
}

/** The gaps of the range's coverage in one line, undefined when it has none. */
function gapsOf(coverage: readonly StreamCoverage[]): string | undefined {
  const gaps = coverage
    .filter((c) => c.gaps.length > 0)
    .map((c) => ({ account: c.account, stream: c.stream, windows: c.gaps, unreachable: c.unreachable }));
  return gaps.length === 0 ? undefined : describeGaps(gaps, { profiles: gaps.some((g) => g.account !== 'default') });
}

/** What the cost basis of the range lacks of the accounts' history (docs/history.md), read after the gains. */
async function historyOfRange(
  warehouse: Warehouse,
  run: Run,
  of: {
    extracted: readonly AccountResult[] | undefined;
    coverage: readonly StreamCoverage[];
    range: Window;
    unit: string;
  },
): Promise<HistoryFindings> {
  const checked = checkedStreams(run.options);
  // Where each account was read up to: this run's extraction, else the machine's now (as the gap rule).
  const readTo = new Map((of.extracted ?? []).map((a) => [a.account, a.extract.to]));
  const accounts = [...new Set(of.coverage.map((c) => c.account))];
  return findHistoryGaps(warehouse, {
    accounts,
    range: of.range,
    settings: run.settings,
    unit: of.unit,
    readUpTo: readTo,
    ...(checked === undefined ? {} : { streams: checked }),
  });
}

/**
 * The export's folder, and for a period to date where its records were read up to. The UK rules' last disposals are
 * matched with acquisitions up to 30 days after the range: not final before then, nor while those days are not read
 * (an export alone of a warehouse read over its range only).
 */
async function whereWritten(
  warehouse: Warehouse,
  run: Run,
  coverage: readonly StreamCoverage[],
  period: Period,
): Promise<NonNullable<Exported['written']>> {
  const range = period.window;
  const now = run.options.clock ?? Date.now;
  const upTo = period.toDate ? readUpTo(coverage, range) : undefined;
  const finalAt = range.end + lookAhead(run.settings);
  const ahead =
    finalAt > range.end
      ? await coverageOfRange(warehouse, {
          range: { start: range.end, end: finalAt },
          now: now(),
          streams: LOT_STREAMS.map((s) => s.name),
        })
      : [];
  const provisional =
    finalAt > range.end && (finalAt > now() || ahead.some((c) => c.gaps.length > 0)) ? { gainsFinalAt: finalAt } : {};
  const dir = 'given' in run.out ? run.out.given : join(run.out.root, period.folder);
  return { period, dir, ...(upTo === undefined ? {} : { readUpTo: upTo }), ...provisional };
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
async function rangeCoverage(
  warehouse: Warehouse,
  run: Run,
  extracted: readonly AccountResult[] | undefined,
  range: Window,
  toDate: boolean,
): Promise<StreamCoverage[]> {
  const { options } = run;
  const streams = checkedStreams(options);
  const now = (options.clock ?? Date.now)();
  const base = { range, now, ...(streams === undefined ? {} : { streams }) };
  // Where this run read up to (the platform's present); without an extraction, every account held.
  if (extracted !== undefined)
    return coverageOfRange(warehouse, {
      ...base,
      accounts: extracted.map((a) => ({ name: a.account, end: a.extract.to })),
    });
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
const firstSpanEnd = (c: StreamCoverage, range: Window): number =>
  c.covered.find((w) => w.start <= range.start)?.end ?? range.start;

/** The export stage's files: the run's set, and each account's own tax files and report. */
async function writeExports(
  warehouse: Warehouse,
  run: Run,
  files: {
    dir: string;
    period: Period;
    valuation: Valuation;
    manifest: ManifestFacts;
    byAccount: ReadonlyMap<string, Completeness> | undefined;
    plausibility: readonly Implausible[];
  },
): Promise<ExportedFile[]> {
  const { options } = run;
  const { dir, period, valuation, manifest, byAccount, plausibility } = files;
  const range = period.window;
  const clock = options.clock ?? Date.now;
  const formats = formatsOf(run);
  // The report alone is no set of files to describe: the manifest of the last export stays as it was.
  const described = formats.some((f) => f !== 'report') ? { manifest } : {};
  // The report of the set shows every account the warehouse holds, as its tables do.
  const completeness = byAccount === undefined ? {} : { completeness: completenessOf(byAccount) };
  const toDate = {
    ...(manifest.toDate === undefined ? {} : { toDate: manifest.toDate }),
    ...(period.taxYear === undefined ? {} : { taxYear: `tax year ${period.taxYear}` }),
    // Read once by the export stage: each report shows its account's.
    plausibility,
  };
  if (run.period === undefined) {
    // The nightly's folder is known only now: made ready as --out's is before a run.
    await prepareOut(dir);
    await recoverExports(dir);
  }
  const written = await exportFiles(warehouse, {
    out: dir,
    from: range.start,
    to: range.end,
    formats,
    ...described,
    valuation,
    report: { coverage: manifest.coverage, ...completeness, ...toDate },
    // Made by exportStage for all its reads.
    rangeValued: true,
    clock,
  });
  // Neither Koinly's format nor CoinTracking's has an account column: with several accounts, each gets its
  // own tax files and report too, under <out>/accounts/<name>/, a set of files of its own.
  const own = formats.filter((f) => f === 'koinly' || f === 'cointracking' || f === 'report');
  if (manifest.accounts.length <= 1 || own.length === 0) return written;
  const theirs = await writeAccountExports(warehouse, {
    dir,
    range,
    own,
    valuation,
    manifest,
    byAccount,
    toDate,
    clock,
  });
  return [...written, ...theirs];
}

/**
 * Each account's own files (`own`: its tax files and report) under <out>/accounts/<name>/, with the manifest,
 * coverage and completeness of that account alone.
 */
async function writeAccountExports(
  warehouse: Warehouse,
  files: {
    dir: string;
    range: Window;
    own: ExportFormat[];
    valuation: Valuation;
    manifest: ManifestFacts;
    byAccount: ReadonlyMap<string, Completeness> | undefined;
    toDate: Omit<ReportFacts, 'coverage' | 'completeness'>;
    clock: () => number;
  },
): Promise<ExportedFile[]> {
  const { dir, range, own, valuation, manifest, byAccount, toDate, clock } = files;
  const theirs: ExportedFile[] = [];
  for (const account of manifest.accounts) {
    const coverage = manifest.coverage.filter((c) => c.account === account);
    const theirCompleteness =
      manifest.completeness === undefined || byAccount === undefined ? undefined : completenessOf(byAccount, account);
    const completeness = theirCompleteness === undefined ? {} : { completeness: theirCompleteness };
    const facts = { ...manifest, accounts: [account], coverage, ...completeness };
    theirs.push(
      ...(await exportFiles(warehouse, {
        out: join(dir, 'accounts', account),
        from: range.start,
        to: range.end,
        formats: own,
        ...(own.some((f) => f !== 'report') ? { manifest: facts } : {}),
        valuation,
        report: { coverage, ...completeness, ...toDate },
        account,
        rangeValued: true,
        clock,
      })),
    );
  }
  return theirs;
}

/** The lake's partitions of this run's own accounts: those it extracted, else those it holds (of its shard). */
async function writeRunLake(
  warehouse: Warehouse,
  run: Run,
  extracted: readonly AccountResult[] | undefined,
  lake: { lake: string; range: Window; held: readonly string[] },
): Promise<LakePartition[]> {
  const { options } = run;
  const { shard } = options;
  const held = shard === undefined ? undefined : lake.held.filter((a) => shardOf(a, shard.count) === shard.index);
  const accounts =
    extracted !== undefined
      ? { accounts: extracted.map((a) => a.account) }
      : held === undefined
        ? {}
        : { accounts: held };
  return writeLake(warehouse, {
    lake: lake.lake,
    range: lake.range,
    ...accounts,
    ...(options.lakeMode === undefined ? {} : { mode: options.lakeMode }),
    now: (options.clock ?? Date.now)(),
  });
}

/** The streams the gap rule checks: those --streams or the pipeline names; undefined for every stream held. */
function checkedStreams(options: Pick<RunPipelineOptions, 'streams' | 'pipeline'>): string[] | undefined {
  if (options.streams !== undefined) return options.streams.map((s) => s.name);
  return options.pipeline.streams === 'all' ? undefined : [...options.pipeline.streams];
}
