import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { configureDuckDBAllocator } from '../src/duckdb/duckdb-allocator.js';
import type { ScaleFigures } from './scale-measure.js';
import { measureSimThroughput } from './sim-throughput.js';

/** One printed figure. `target` is empty for figures that only explain another one. */
interface Figure {
  name: string;
  value: number;
  unit: string;
  target: string;
  /** Whether the figure meets its target; undefined when it has none. */
  met?: boolean;
}

/** One benchmark: a name, and a run that turns into figures plus the raw result for the JSON file. */
interface Benchmark {
  name: string;
  run(context: { quick: boolean; signal: AbortSignal }): Promise<{ figures: Figure[]; raw: unknown }>;
}

const SIM_TARGET_RPS = 3000;

const simThroughput: Benchmark = {
  name: 'sim-throughput',
  async run({ quick, signal }) {
    const result = await measureSimThroughput({
      durationMs: quick ? 2000 : 5000,
      warmupMs: quick ? 500 : 1000,
      signal,
    });
    const others = Object.entries(result.byStatus)
      .filter(([status]) => status !== '200' && status !== '429')
      .reduce((sum, [, count]) => sum + count, 0);
    const figures: Figure[] = [
      {
        name: 'simulator throughput',
        value: result.requestsPerSecond,
        unit: 'req/s',
        target: `>= ${SIM_TARGET_RPS} req/s at --rate-scale 1000`,
        met: result.requestsPerSecond >= SIM_TARGET_RPS,
      },
      { name: 'simulator latency p50', value: result.p50Ms, unit: 'ms', target: '' },
      { name: 'simulator latency p99', value: result.p99Ms, unit: 'ms', target: '' },
      { name: 'simulator 429 answers', value: result.rateLimited, unit: 'requests', target: '' },
      { name: 'simulator other non-200 / invalid', value: others + result.invalidBodies, unit: 'requests', target: '' },
      // Next to the client's share, it shows which side limits the figure; /proc only exists on Linux.
      ...(result.serverCpuPercent === undefined
        ? []
        : [{ name: 'simulator CPU', value: result.serverCpuPercent, unit: '% of a core', target: '' }]),
      {
        name: `load generator CPU (${result.threads} threads, ${result.connections} sockets)`,
        value: result.clientCpuPercent,
        unit: '% of a core',
        target: '',
      },
    ];
    return { figures, raw: result };
  },
};

const EXTRACTION_TARGET_RATIO = 1.1;
const round = (n: number, places: number): number => Math.round(n * 10 ** places) / 10 ** places;

const extractionAtRealRates: Benchmark = {
  name: 'extraction-real-rates',
  async run({ quick }) {
    // One year (a quarter with --quick) of the simulator's default scale, at the platform's real limits.
    // Imported here, not at the top: DuckDB loads with them, after main() configured its allocator.
    const [{ measureExtraction }, { extractOneByOne }] = await Promise.all([
      import('./extract-bound.js'),
      import('./baseline.js'),
    ]);
    const data = {
      seed: 'bench',
      from: '2025-01-01',
      to: quick ? '2025-04-01' : '2026-01-01',
      records: quick ? 500 : 2000,
    };
    const result = await measureExtraction(data);
    const baseline = await measureExtraction({ ...data, extractWith: extractOneByOne });
    const figures: Figure[] = [
      {
        name: `extraction wall time (${quick ? 'one quarter' : 'one year'}, real rates)`,
        value: round(result.wallSeconds, 2),
        unit: 's',
        target: '',
      },
      { name: 'rate-limit bound (slowest endpoint)', value: round(result.boundSeconds, 2), unit: 's', target: '' },
      {
        name: 'extraction / bound',
        value: round(result.ratio, 3),
        unit: '',
        target: `<= ${EXTRACTION_TARGET_RATIO}`,
        met: result.ratio <= EXTRACTION_TARGET_RATIO,
      },
      {
        name: 'baseline: one request at a time, streams in turn',
        value: round(baseline.wallSeconds, 2),
        unit: 's',
        target: '',
      },
      { name: 'baseline / bound', value: round(baseline.ratio, 3), unit: '', target: '' },
      { name: 'requests sent', value: result.requests, unit: `(fewest possible ${result.fewestRequests})`, target: '' },
      { name: '429s received', value: result.rateLimited, unit: '', target: '0', met: result.rateLimited === 0 },
      { name: 'records extracted', value: result.records, unit: '', target: '' },
    ];
    return { figures, raw: { ledgerpipe: result, baseline } };
  },
};

/** Runs one scale of the pipeline in its own process (its peak RSS must be its own) and reads its figures. */
async function pipelineScale(records: number, signal: AbortSignal): Promise<ScaleFigures> {
  const script = fileURLToPath(new URL('./pipeline-scale.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(records)], { stdio: ['ignore', 'pipe', 'inherit'], signal });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`pipeline-scale ${records} exited with ${String(code)}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ScaleFigures;
}

const TRANSFORM_EXPORT_TARGET_S = 15;
const RSS_GROWTH_TARGET = 1.5;

const pipelineAtScale: Benchmark = {
  name: 'pipeline-scale',
  async run({ quick, signal }) {
    const [small, large] = quick ? [10_000, 100_000] : [100_000, 1_000_000];
    const s = await pipelineScale(small, signal);
    const l = await pipelineScale(large, signal);
    const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
    const transformExport = l.transformSeconds + l.exportSeconds;
    const growth = l.peakRssMb / s.peakRssMb;
    const figures: Figure[] = [
      {
        name: `extraction at --rate-scale 1000, ${label(large)} fills`,
        value: Math.round(l.extractRecordsPerSecond),
        unit: 'records/s',
        target: '',
      },
      { name: `transform, ${label(large)} fills`, value: round(l.transformSeconds, 2), unit: 's', target: '' },
      { name: `export CSV + Parquet, ${label(large)} fills`, value: round(l.exportSeconds, 2), unit: 's', target: '' },
      {
        name: `transform + export, ${label(large)} fills`,
        value: round(transformExport, 2),
        unit: 's',
        target: quick ? '' : `<= ${TRANSFORM_EXPORT_TARGET_S} s`,
        ...(quick ? {} : { met: transformExport <= TRANSFORM_EXPORT_TARGET_S }),
      },
      {
        name: `peak RSS, ${label(small)} fills (whole pipeline)`,
        value: Math.round(s.peakRssMb),
        unit: 'MB',
        target: '',
      },
      {
        name: `peak RSS, ${label(large)} fills (whole pipeline)`,
        value: Math.round(l.peakRssMb),
        unit: 'MB',
        target: '',
      },
      {
        name: `peak RSS ${label(large)} / ${label(small)}`,
        value: round(growth, 2),
        unit: '',
        target: `<= ${RSS_GROWTH_TARGET}`,
        met: growth <= RSS_GROWTH_TARGET,
      },
    ];
    return { figures, raw: { small: s, large: l } };
  },
};

const busyYear: Benchmark = {
  name: 'busy-year',
  async run({ quick, signal }) {
    const { measureBusyYear } = await import('./busy-year.js');
    const sizes = quick ? [30_000, 100_000] : [300_000, 1_000_000];
    const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
    const figures: Figure[] = [];
    const raw: Record<string, unknown> = {};
    for (const fills of sizes) {
      const result = await measureBusyYear(fills, signal);
      raw[label(fills)] = result;
      figures.push(
        {
          name: `run year-end, ${label(fills)} fills + every stream (default budget)`,
          value: round(result.wallSeconds, 1),
          unit: 's',
          target: 'exit 0',
          met: true,
        },
        {
          name: `peak RSS, run year-end, ${label(fills)} fills + every stream`,
          value: Math.round(result.peakRssMb),
          unit: 'MB',
          target: '',
        },
      );
    }
    return { figures, raw };
  },
};

const PRICES_TARGET_RATIO = 1.1;

const pricesAtRealRates: Benchmark = {
  name: 'prices-real-rates',
  async run({ quick }) {
    const { measurePrices } = await import('./prices-bound.js');
    const result = await measurePrices({ from: '2025-01-01', to: quick ? '2025-04-01' : '2026-01-01' });
    const span = quick ? 'one quarter' : 'one year';
    const figures: Figure[] = [
      {
        name: `prices wall time (${result.assets} assets, ${span}, 20 req/s per IP)`,
        value: round(result.wallSeconds, 2),
        unit: 's',
        target: '',
      },
      { name: 'prices rate-limit bound', value: round(result.boundSeconds, 2), unit: 's', target: '' },
      {
        name: 'prices / bound',
        value: round(result.ratio, 3),
        unit: '',
        target: `<= ${PRICES_TARGET_RATIO}`,
        met: result.ratio <= PRICES_TARGET_RATIO,
      },
      {
        name: 'prices requests sent',
        value: result.requests,
        unit: `(fewest possible ${result.fewestRequests})`,
        target: '',
      },
      { name: 'prices 429s received', value: result.rateLimited, unit: '', target: '0', met: result.rateLimited === 0 },
      { name: 'hourly candles stored', value: result.candles, unit: '', target: '' },
    ];
    return { figures, raw: result };
  },
};

/** Issue 32: the gains engine over a year of 300k spot trades (bench/gains.ts), each method in a process of its own. */
const gainsEngine: Benchmark = {
  name: 'gains',
  async run({ quick }) {
    const trades = quick ? 30_000 : 300_000;
    const figures: Figure[] = [];
    const raw: Record<string, unknown> = {};
    for (const method of ['fifo', 'hifo', 'average', 'uk']) {
      const child = spawn(
        process.execPath,
        [fileURLToPath(new URL('./gains.js', import.meta.url)), String(trades), method],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const [code] = (await once(child, 'exit')) as [number | null];
      if (code !== 0) throw new Error(`bench: gains ${method} exited with ${String(code)}`);
      const result = JSON.parse(out) as { events: number; seconds: number; disposals: number; peakRssMb: number };
      raw[method] = result;
      figures.push({
        name: `gains, ${trades.toLocaleString('en-US')} spot trades (${result.events.toLocaleString('en-US')} token movements), ${method}`,
        value: round(result.seconds, 2),
        unit: `s, peak RSS ${result.peakRssMb} MB, ${result.disposals} slices`,
        target: '',
      });
    }
    return { figures, raw };
  },
};

const YEAR_END_TARGET_RATIO = 1.1;
/** Runs of each year-end, whose median is reported: one run's figure moves with what else the machine does. */
const YEAR_END_RUNS = 3;

/** The middle value of `values` (the mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Issues 31 and 45: the whole `run year-end` of one account, prices and every file, at the real limits
 * (bench/year-end-bound.ts), three ways: every stream; every stream but the per-asset balance snapshot
 * (`--streams` without asset_balances); and an account whose year's coins are sold before its end, so that its
 * snapshot lists none of them. The target counts the prices read after the transform against the bound.
 */
const yearEndAtRealRates: Benchmark = {
  name: 'year-end-real-rates',
  async run({ quick }) {
    const { measureYearEnd } = await import('./year-end-bound.js');
    const data = {
      seed: 'bench',
      from: '2025-01-01',
      to: quick ? '2025-04-01' : '2026-01-01',
      records: quick ? 500 : 2000,
    };
    const cases = [
      { label: 'every stream', options: {} },
      { label: 'without asset_balances', options: { snapshot: false } },
      { label: 'coins sold before the end', options: { account: 'sold-off' as const } },
    ];
    const figures: Figure[] = [];
    const raw: Record<string, unknown> = {};
    for (const { label, options } of cases) {
      const runs = [];
      for (let i = 0; i < YEAR_END_RUNS; i++) runs.push(await measureYearEnd({ ...data, ...options }));
      raw[label] = runs;
      const ratios = runs.map((r) => r.boundRatio);
      const ratio = median(ratios);
      // The run whose ratio is the median: its stages and requests are shown.
      const mid = runs.find((r) => r.boundRatio === ratio) ?? (runs[0] as (typeof runs)[number]);
      const s = mid.stageSeconds;
      const bound = Math.max(mid.extractBoundSeconds, mid.candleBoundSeconds);
      figures.push(
        {
          name: `run year-end, ${label} (${quick ? 'one quarter' : 'one year'}, real rates, ${mid.files} files): wall, median of ${runs.length}`,
          value: round(median(runs.map((r) => r.wallSeconds)), 2),
          unit: `s (${runs.map((r) => round(r.wallSeconds, 1)).join(' / ')})`,
          target: '',
        },
        {
          name: '  bounds: extraction (slowest stream) / candles (fewest requests / 20 a second)',
          value: round(mid.extractBoundSeconds, 2),
          unit: `/ ${round(mid.candleBoundSeconds, 2)} s (${mid.candleFewestRequests} requests)`,
          target: '',
        },
        {
          name: '  median run: extract (candles beside) / transform / prices after / export',
          value: round(s['extract'] ?? 0, 2),
          unit: `/ ${round(s['transform'] ?? 0, 2)} / ${round(s['prices'] ?? 0, 2)} / ${round(s['export'] ?? 0, 2)} s`,
          target: '',
        },
        {
          name: `  (wall - transform - export) / larger bound (${round(bound, 2)} s), median`,
          value: round(ratio, 3),
          unit: `(${ratios.map((r) => round(r, 3)).join(' / ')})`,
          target: `<= ${YEAR_END_TARGET_RATIO}`,
          met: ratio <= YEAR_END_TARGET_RATIO,
        },
        {
          name: "  (extract + prices after) / larger bound, median: the warehouse's opening and closing left out",
          value: round(median(runs.map((r) => r.readingRatio)), 3),
          unit: `(${runs.map((r) => round(r.readingRatio, 3)).join(' / ')})`,
          target: '',
        },
        {
          name: '  median run: requests, records / candles',
          value: mid.requests,
          unit: `/ ${mid.candleRequests}`,
          target: '',
        },
        {
          name: '  429s received, every run: records / candles',
          value: runs.reduce((n, r) => n + r.rateLimited, 0),
          unit: `/ ${runs.reduce((n, r) => n + r.candleRateLimited, 0)}`,
          target: '0 / 0',
          met: runs.every((r) => r.rateLimited === 0 && r.candleRateLimited === 0),
        },
      );
    }
    return { figures, raw };
  },
};

const ACCOUNTS_TARGET_RATIO = 1.1;

const manyAccounts: Benchmark = {
  name: 'many-accounts',
  async run({ quick }) {
    const { measureAccounts } = await import('./accounts-bound.js');
    const counts = quick ? [1, 10] : [1, 10, 40, 100];
    const span = quick ? 'one quarter' : 'one year';
    const figures: Figure[] = [];
    const raw: Record<string, unknown> = {};
    for (const accounts of counts) {
      const result = await measureAccounts({
        accounts,
        seed: 'bench',
        from: '2025-01-01',
        to: quick ? '2025-04-01' : '2026-01-01',
        records: quick ? 500 : 2000,
      });
      raw[String(accounts)] = result;
      const limit = result.ipBoundSeconds > result.perKeyBoundSeconds ? 'IP budget' : 'per key';
      figures.push(
        {
          name: `${accounts} accounts, ${span}, real rates: wall time`,
          value: round(result.wallSeconds, 1),
          unit: `s (bound ${round(result.boundSeconds, 1)} s, ${limit})`,
          target: '',
        },
        {
          name: `${accounts} accounts / bound`,
          value: round(result.ratio, 3),
          unit: `(${result.requests} requests)`,
          target: `<= ${ACCOUNTS_TARGET_RATIO}`,
          met: result.ratio <= ACCOUNTS_TARGET_RATIO,
        },
        {
          name: `${accounts} accounts: 429s received / IP cap breaches`,
          value: result.rateLimited,
          unit: `/ ${result.ipBreaches}`,
          target: '0 / 0',
          met: result.rateLimited === 0 && result.ipBreaches === 0,
        },
      );
    }
    return { figures, raw };
  },
};

/**
 * Issue 45: one IP budget per machine. 40 accounts at the real limits, split between processes of this machine on one
 * address (bench/machine-budget.ts): as 3 shards one after another (a cron of shards), and as two runs of 20 at once
 * on two warehouses. Before, each process had its own budget: the second shard started at full speed within the
 * first one's minute, and the address was blocked.
 */
const machineBudget: Benchmark = {
  name: 'machine-budget',
  async run({ quick, signal }) {
    const { measureMachineBudget } = await import('./machine-budget.js');
    const span = quick ? 'one quarter' : 'one year';
    const data = {
      accounts: quick ? 10 : 40,
      seed: 'bench',
      from: '2025-01-01',
      to: quick ? '2025-04-01' : '2026-01-01',
      records: quick ? 500 : 2000,
      signal,
    };
    const figures: Figure[] = [];
    const raw: Record<string, unknown> = {};
    const label = {
      'shards-one-after-another': `${data.accounts} accounts as 3 shards one after another`,
      'two-at-once': `two runs of ${data.accounts / 2} accounts at once`,
    } as const;
    for (const scenario of ['shards-one-after-another', 'two-at-once'] as const) {
      const r = await measureMachineBudget({ ...data, scenario });
      raw[scenario] = r;
      const limit =
        r.bound.ipBoundSeconds > r.bound.perKeyBoundSeconds
          ? 'IP budget'
          : scenario === 'two-at-once'
            ? 'per key'
            : "the shards' slowest keys in turn";
      figures.push(
        {
          name: `${label[scenario]}, ${span}, real rates: wall time`,
          value: round(r.wallSeconds, 1),
          unit: `s (bound ${round(r.bound.boundSeconds, 1)} s, ${limit}; processes ${r.processSeconds.map((s) => round(s, 1)).join(' / ')} s)`,
          target: '',
        },
        { name: `  wall / bound`, value: round(r.ratio, 3), unit: '', target: '' },
        {
          name: `  requests at the simulator`,
          value: r.requests,
          unit: `(fewest possible ${r.bound.fewestRequests}; the processes counted ${r.clientRequests})`,
          target: '',
        },
        {
          name: `  429s / per-IP cap breaches at the simulator`,
          value: r.rateLimited,
          unit: `/ ${r.ipBreaches}${
            r.rateLimited === 0
              ? ''
              : ` (by stream: ${Object.entries(r.rateLimitedByStream)
                  .map(([k, n]) => `${k} ${n}`)
                  .join(', ')})`
          }`,
          target: '0 / 0',
          met: r.rateLimited === 0 && r.ipBreaches === 0,
        },
      );
    }
    return { figures, raw };
  },
};

const FULL_REBUILD_TARGET_S = 6;
const NIGHT_TRANSFORM_TARGET_S = 2;
const NIGHT_RSS_TARGET_MB = 300;

/**
 * Issue 17: a full rebuild of 1M fills, and a night's transform against 0.3M, 1M and 3M fills of history
 * (bench/incremental.ts).
 */
const incrementalModels: Benchmark = {
  name: 'incremental',
  async run({ quick, signal }) {
    const { measureIncremental } = await import('./incremental.js');
    const result = await measureIncremental(signal, quick);
    const label = (n: number) => (n >= 1_000_000 ? `${round(n / 1_000_000, 1)}M` : `${Math.round(n / 1000)}k`);
    const full = result.fullRebuild;
    const fullSeconds = full.transformSeconds + full.exportSeconds;
    const largest = result.nights.at(-1);
    const figures: Figure[] = [
      {
        name: `full rebuild, ${label(full.fills)} fills: typed again, ledger, checks`,
        value: round(full.transformSeconds, 2),
        unit: 's',
        target: '',
      },
      {
        name: `full rebuild, ${label(full.fills)} fills: CSV + Parquet`,
        value: round(full.exportSeconds, 2),
        unit: 's',
        target: '',
      },
      {
        name: `full rebuild, ${label(full.fills)} fills, raw_records to files`,
        value: round(fullSeconds, 2),
        unit: 's',
        target: quick ? '' : `<= ${FULL_REBUILD_TARGET_S} s`,
        ...(quick ? {} : { met: fullSeconds <= FULL_REBUILD_TARGET_S }),
      },
      ...result.nights.map((n) => ({
        name: `whole transform of a history of ${label(n.fills)} fills, default budget`,
        value: round(n.fullTransformSeconds, 2),
        unit: 's',
        target: '',
      })),
      ...result.nights.flatMap((n) => [
        {
          name: `night of 3,000 fills + 20 moved withdrawals on ${label(n.fills)} fills: transform (its log)`,
          value: round(n.transformSeconds, 2),
          unit: 's',
          target: n === largest && !quick ? `<= ${NIGHT_TRANSFORM_TARGET_S} s` : '',
          ...(n === largest && !quick ? { met: n.transformSeconds <= NIGHT_TRANSFORM_TARGET_S } : {}),
        },
        {
          name: `  ledgerpipe transform, wall / peak RSS, ${label(n.fills)} fills`,
          value: round(n.transformWallSeconds, 2),
          unit: `s / ${Math.round(n.transformPeakRssMb)} MB`,
          target: n === largest && !quick ? `< ${NIGHT_RSS_TARGET_MB} MB` : '',
          ...(n === largest && !quick ? { met: n.transformPeakRssMb < NIGHT_RSS_TARGET_MB } : {}),
        },
        {
          name: `  ledgerpipe export of the year to date, wall / peak RSS, ${label(n.fills)} fills`,
          value: round(n.exportWallSeconds, 2),
          unit: `s / ${Math.round(n.exportPeakRssMb)} MB`,
          target: '',
        },
      ]),
    ];
    return { figures, raw: result };
  },
};

const ONE_DAY_GROWTH_TARGET = 1.5;
const ONE_DAY_TARGET_S = 2.5;
const ONE_DAY_RSS_TARGET_MB = 450;
const TRANSFORM_EXPORT_RATIO_TARGET = 1.0;
const TRANSFORM_EXPORT_RSS_TARGET_MB = 600;

/**
 * Issue 45: a night's one-day export on histories of 100k and 1M fills (the gains kept, taking in the night), and a
 * year's transform + export of 1M fills against the plain one-pass DuckDB script (bench/one-day-export.ts,
 * bench/transform-export.ts), each step a process of its own.
 */
const exportScale: Benchmark = {
  name: 'export-scale',
  async run({ quick, signal }) {
    const { measureExportScale } = await import('./one-day-export.js');
    const result = await measureExportScale(signal, quick);
    const label = (n: number) => (n >= 1_000_000 ? `${round(n / 1_000_000, 2)}M` : `${Math.round(n / 1000)}k`);
    const [small, large] = result.nights as [OneDay, OneDay];
    const growth = large.exportSeconds / small.exportSeconds;
    const t = result.transformExport;
    const ours = t.transformSeconds + t.exportSeconds;
    const rss = Math.max(t.transformPeakRssMb, t.exportPeakRssMb);
    const figures: Figure[] = [
      ...result.nights.flatMap((n) => [
        {
          name: `one-day export (CSV) after a night of ${n.nightFills} fills, ${label(n.fills)} fills of history: wall / peak RSS`,
          value: round(n.exportSeconds, 2),
          unit: `s / ${Math.round(n.exportPeakRssMb)} MB`,
          target: n === large && !quick ? `<= ${ONE_DAY_TARGET_S} s, <= ${ONE_DAY_RSS_TARGET_MB} MB` : '',
          ...(n === large && !quick
            ? { met: n.exportSeconds <= ONE_DAY_TARGET_S && n.exportPeakRssMb <= ONE_DAY_RSS_TARGET_MB }
            : {}),
        },
        {
          name: `  the same export again, nothing new, ${label(n.fills)} fills`,
          value: round(n.againSeconds, 2),
          unit: `s / ${Math.round(n.againPeakRssMb)} MB`,
          target: '',
        },
      ]),
      {
        name: `one-day export ${label(large.fills)} / ${label(small.fills)}`,
        value: round(growth, 2),
        unit: '',
        target: `<= ${ONE_DAY_GROWTH_TARGET}`,
        met: growth <= ONE_DAY_GROWTH_TARGET,
      },
      {
        name: `transform + export (CSV, Parquet), ${label(large.fills)} fills: transform / export`,
        value: round(t.transformSeconds, 2),
        unit: `/ ${round(t.exportSeconds, 2)} s, peak RSS ${Math.round(t.transformPeakRssMb)} / ${Math.round(t.exportPeakRssMb)} MB`,
        target: quick ? '' : `<= ${TRANSFORM_EXPORT_RSS_TARGET_MB} MB`,
        ...(quick ? {} : { met: rss <= TRANSFORM_EXPORT_RSS_TARGET_MB }),
      },
      {
        name: `  the plain one-pass DuckDB script (bench/baseline.ts): wall / peak RSS`,
        value: round(t.baselineSeconds, 2),
        unit: `s / ${Math.round(t.baselinePeakRssMb)} MB`,
        target: '',
      },
      {
        name: `  one-pass script / ledgerpipe (${round(ours, 2)} s)`,
        value: round(t.ratio, 3),
        unit: '',
        target: `>= ${TRANSFORM_EXPORT_RATIO_TARGET}`,
        met: t.ratio >= TRANSFORM_EXPORT_RATIO_TARGET,
      },
    ];
    return { figures, raw: result };
  },
};

type OneDay = import('./one-day-export.js').OneDayFigures;

/** Every benchmark `npm run bench` runs, in order; add new ones here. */
const BENCHMARKS: readonly Benchmark[] = [
  simThroughput,
  extractionAtRealRates,
  pricesAtRealRates,
  yearEndAtRealRates,
  manyAccounts,
  machineBudget,
  gainsEngine,
  pipelineAtScale,
  busyYear,
  incrementalModels,
  exportScale,
];

function formatRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => cell.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();
}

/** A plain-text table: figure, value, target, and whether the target is met. */
function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    `${f.value} ${f.unit}`,
    f.target === '' ? '-' : f.target,
    f.met === undefined ? '' : f.met ? 'ok' : 'MISSED',
  ]);
  const header = ['figure', 'value', 'target', ''];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? '').length)));
  return [
    formatRow(header, widths),
    formatRow(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...rows.map((r) => formatRow(r, widths)),
  ].join('\n');
}

/** How long the bench may run before it gives up. */
const LAST_RESORT_MINUTES = 45;

async function main(): Promise<void> {
  // Pessimistic until the end: if a pending promise were ever dropped, Node would exit quietly with this.
  process.exitCode = 1;
  configureDuckDBAllocator();
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  // --only a,b: those benchmarks alone (their names: BENCHMARKS), e.g. to measure again the ones a change touches.
  const only = args
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const unknown = (only ?? []).filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0)
    throw new Error(
      `--only: no benchmark named ${unknown.join(', ')}; the names are ${BENCHMARKS.map((b) => b.name).join(', ')}`,
    );
  // Ctrl-C or a CI timeout ends the run through the benchmarks' own cleanup, so no simulator is left behind.
  const controller = new AbortController();
  const abort = (): void => controller.abort(new Error('interrupted'));
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  // Last resort: a benchmark must stop by itself. Unref'd, so it only fires if something else hangs on. It ends
  // the run as Ctrl-C does (the benchmarks that watch the signal stop their simulators), and exits a minute
  // later whatever still runs. The whole bench takes about 25 minutes (docs/development.md).
  setTimeout(() => {
    process.stderr.write(`bench: still running after ${LAST_RESORT_MINUTES} minutes, giving up\n`);
    abort();
    setTimeout(() => process.exit(2), 60_000).unref();
  }, LAST_RESORT_MINUTES * 60_000).unref();

  const startedAt = new Date().toISOString();
  const figures: Figure[] = [];
  const raw: Record<string, unknown> = {};
  for (const benchmark of BENCHMARKS.filter((b) => only === undefined || only.includes(b.name))) {
    const started = performance.now();
    const outcome = await benchmark.run({ quick, signal: controller.signal });
    // Each benchmark's figures as it finishes, on stderr: a later one that fails does not lose them.
    process.stderr.write(
      `bench: ${benchmark.name} done in ${Math.round((performance.now() - started) / 1000)} s\n${formatTable(outcome.figures)}\n`,
    );
    figures.push(...outcome.figures);
    raw[benchmark.name] = outcome.raw;
  }

  console.log(formatTable(figures));
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const report = { startedAt, quick, ...(only === undefined ? {} : { only }), node: process.version, figures, raw };
  await writeFile(`${dir}${only === undefined ? 'latest' : 'only'}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to bench/results/${only === undefined ? 'latest' : 'only'}.json`);
  process.off('SIGINT', abort);
  process.off('SIGTERM', abort);
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    // An interruption is not a bug: its stack would only hide the message.
    const text =
      error instanceof Error
        ? error.message === 'interrupted'
          ? error.message
          : (error.stack ?? error.message)
        : String(error);
    process.stderr.write(`bench: ${text}\n`);
    process.exitCode = 1;
  },
);
