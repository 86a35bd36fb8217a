/**
 * The cost of a night against the size of the history (docs/transform.md): one simulator year of
 * 1M futures fills with its withdrawals, extracted once, then shaped into histories of 0.3M, 1M and 3M fills (a
 * share of the fills kept, or the year copied into the two before it under new keys). Each history is made whole
 * at the default budget (`runTransforms` with full: typed again from raw_records, the whole ledger, its checks)
 * and, at 1M, exported (CSV and Parquet): the full rebuild. Then a night is loaded as extraction loads it (the
 * raw writer: typed at load, noted in pending_changes): 3,000 new fills and 20 withdrawals whose status moved to
 * success. The night's `ledgerpipe transform` and year-to-date `ledgerpipe export` run as a user runs them, each
 * in a process of its own at the default memory budget, and are measured: wall time, the transform's own time
 * from its log, peak RSS.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extract } from '../src/extract/extractor.js';
import { exportFiles } from '../src/export/exporter.js';
import { createSignedClient } from '../src/http/client.js';
import { futuresFills } from '../src/streams/futures-fills.js';
import { withdrawals } from '../src/streams/withdrawals.js';
import { runTransforms } from '../src/transform/runner.js';
import { extractionMemoryBudget } from '../src/duckdb/memory-budget.js';
import { createRawWriter, type LoadRecord } from '../src/load/raw-writer.js';
import { openWarehouse, type Warehouse } from '../src/warehouse/warehouse.js';
import { timestampTzSql } from '../src/duckdb/time-values.js';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface NightFigures {
  fills: number;
  /** The whole transform (typed again, ledger, checks) that made the history, in process, at the default budget. */
  fullTransformSeconds: number;
  /** The night's `ledgerpipe transform`: wall time of the process, the transform's own time (its log), peak RSS. */
  transformWallSeconds: number;
  transformSeconds: number;
  transformPeakRssMb: number;
  transformLog: string;
  /** The year-to-date `ledgerpipe export` (CSV and Parquet) after it. */
  exportWallSeconds: number;
  exportPeakRssMb: number;
}

export interface IncrementalFigures {
  nights: NightFigures[];
  /** The full rebuild of the 1M history: typed again, ledger and checks; then CSV and Parquet of the year. */
  fullRebuild: { fills: number; transformSeconds: number; exportSeconds: number };
}

const MAIN = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
const REPORT_RSS = pathToFileURL(fileURLToPath(new URL('./report-rss.js', import.meta.url))).href;
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const NEW_FILLS = 3_000;
const MOVED_WITHDRAWALS = 20;

/**
 * Runs the CLI (`main`, this build's by default) as a user does, at the default memory budget, and reads its peak RSS.
 */
export async function cli(
  args: string[],
  dir: string,
  signal: AbortSignal,
  main = MAIN,
): Promise<{ seconds: number; peakRssMb: number; stderr: string }> {
  const rssFile = join(dir, 'rss');
  const env: NodeJS.ProcessEnv = { ...process.env, LEDGERPIPE_BENCH_RSS_FILE: rssFile };
  delete env['LEDGERPIPE_MEMORY_LIMIT'];
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', REPORT_RSS, main, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    signal,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-65_536)));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0)
    throw new Error(
      `ledgerpipe ${args[0]} exited with ${String(code)}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
  return { seconds, peakRssMb: Number(await readFile(rssFile, 'utf8')), stderr };
}

/** Shapes the extracted year into a history of `fills` fills: a share of them kept, or whole years copied before it. */
export async function shapeHistory(warehouse: Warehouse, held: number, fills: number): Promise<void> {
  const c = warehouse.connection;
  if (fills < held) {
    await c.run(
      `DELETE FROM raw_records WHERE stream = 'futures_fills' AND hash(key) % 1000 >= ${Math.round((1000 * fills) / held)}`,
    );
    return;
  }
  for (let year = 1; year < Math.round(fills / held); year++) {
    const shifted = `ts - INTERVAL ${365 * year} DAY`;
    await c.run(`INSERT INTO raw_records (account, stream, partition, key, ts, payload, first_fetched_at, last_fetched_at)
      SELECT account, stream, partition, 'y${year}-' || key, ${shifted},
        json_merge_patch(payload, json_object('tradeId', 'y${year}-' || key, 'cTime', CAST(epoch_ms(${shifted}) AS VARCHAR))),
        first_fetched_at, last_fetched_at
      FROM raw_records WHERE stream = 'futures_fills' AND ts >= ${timestampTzSql(FROM)}`);
  }
}

/**
 * Loads a night as extraction does: 3,000 new fills (copies of the year's, under new keys) and 20 withdrawals moved to
 * success.
 */
async function loadNight(warehouse: Warehouse): Promise<void> {
  const read = async (sql: string) => (await warehouse.connection.runAndReadAll(sql)).getRowObjectsJS();
  const fills = await read(`SELECT partition, 'night-' || key AS key, epoch_ms(ts) AS ts,
      CAST(json_merge_patch(payload, json_object('tradeId', 'night-' || key)) AS VARCHAR) AS payload
    FROM raw_records WHERE stream = 'futures_fills' AND ts >= TIMESTAMPTZ '2025-12-01 00:00:00+00' ORDER BY key LIMIT ${NEW_FILLS}`);
  const moved = await read(`SELECT partition, key, epoch_ms(ts) AS ts,
      CAST(json_merge_patch(payload, json_object('status', 'success', 'uTime', CAST(epoch_ms(ts) + ${DAY_MS} AS VARCHAR))) AS VARCHAR) AS payload
    FROM raw_records WHERE stream = 'withdrawals' ORDER BY payload->>'status' = 'success', key LIMIT ${MOVED_WITHDRAWALS}`);
  const writer = await createRawWriter(warehouse, { account: 'default', runId: 'night', clock: Date.now });
  const pages = (stream: string, rows: Record<string, unknown>[]) => {
    const out: { stream: string; partition: string; records: LoadRecord[] }[] = [];
    for (const row of rows) {
      const partition = String(row['partition']);
      let page = out.at(-1);
      if (page === undefined || page.partition !== partition || page.records.length === 100)
        out.push((page = { stream, partition, records: [] }));
      page.records.push({ key: String(row['key']), ts: Number(row['ts']), payload: String(row['payload']) });
    }
    return out;
  };
  await Promise.all(
    [...pages('futures_fills', fills), ...pages('withdrawals', moved)].map((p) =>
      writer.commit({ ...p, cursor: null, done: true, tie: false, drift: [], quarantine: [] }),
    ),
  );
}

export async function measureIncremental(signal: AbortSignal, quick = false): Promise<IncrementalFigures> {
  const yearFills = quick ? 100_000 : 1_000_000;
  const sizes = quick ? [30_000, 100_000, 300_000] : [300_000, 1_000_000, 3_000_000];
  const dir = await mkdtemp(join(tmpdir(), 'lp-incremental-'));
  try {
    const base = join(dir, 'base.duckdb');
    const { child, info } = await spawnSimulator({
      records: yearFills,
      rateScale: 1000,
      startTimeoutMs: 300_000,
      seed: 'incremental',
      pendingSeconds: 0,
    });
    let held: number;
    try {
      const warehouse = await openWarehouse(base);
      const client = createSignedClient({ baseUrl: info.baseUrl, credentials: info });
      try {
        const result = await warehouse.withMemoryLimit(extractionMemoryBudget(), () =>
          extract({
            warehouse,
            client,
            account: 'default',
            runId: 'bench',
            streams: [futuresFills, withdrawals],
            from: FROM,
            to: TO,
            rateScale: 1000,
          }),
        );
        held = result.streams['futures_fills']?.records ?? 0;
      } finally {
        await client.close();
        await warehouse.close();
      }
    } finally {
      await stopChild(child);
    }
    const figures: IncrementalFigures = {
      nights: [],
      fullRebuild: { fills: 0, transformSeconds: 0, exportSeconds: 0 },
    };
    for (const fills of sizes) {
      const db = join(dir, `history-${fills}.duckdb`);
      await copyFile(base, db);
      const warehouse = await openWarehouse(db);
      let history: number;
      let fullTransformSeconds: number;
      const step = (what: string) => process.stderr.write(`incremental: history of ${fills} fills: ${what}\n`);
      try {
        step('shaping');
        // Years of nightly loads in one statement: given room, as it is not a step measured.
        await warehouse.withMemoryLimit('4GB', () => shapeHistory(warehouse, held, fills));
        step('full rebuild');
        let started = performance.now();
        // Every history is made whole at the default budget, as `transform --full` makes it: the 1M one, with
        // its export, is the full rebuild's figure; the others say how a whole transform grows with the history.
        await runTransforms(warehouse, { full: true });
        fullTransformSeconds = (performance.now() - started) / 1000;
        history = Number(
          (await warehouse.connection.runAndReadAll('SELECT count(*) FROM futures_fills')).getRows()[0]?.[0],
        );
        if (fills === yearFills) {
          started = performance.now();
          await exportFiles(warehouse, {
            out: join(dir, 'full-export'),
            from: FROM,
            to: TO,
            formats: ['csv', 'parquet'],
          });
          figures.fullRebuild = {
            fills: history,
            transformSeconds: fullTransformSeconds,
            exportSeconds: (performance.now() - started) / 1000,
          };
          step(
            `full rebuild: transform ${fullTransformSeconds.toFixed(2)} s, export ${figures.fullRebuild.exportSeconds.toFixed(2)} s`,
          );
        }
        step('loading the night');
        await warehouse.withMemoryLimit(extractionMemoryBudget(), () => loadNight(warehouse));
      } finally {
        await warehouse.close();
      }
      step("the night's transform and export");
      const transform = await cli(['transform', '--db', db], dir, signal);
      const line = transform.stderr.split('\n').find((l) => l.includes('transform, ')) ?? '';
      const exported = await cli(
        [
          'export',
          '--from',
          '2025-01-01',
          '--to',
          '2026-01-01',
          '--format',
          'csv,parquet',
          '--db',
          db,
          '--out',
          join(dir, `ytd-${fills}`),
          '--quiet',
        ],
        dir,
        signal,
      );
      figures.nights.push({
        fills: history,
        fullTransformSeconds,
        transformWallSeconds: transform.seconds,
        transformSeconds: Number(/: (\d+) ms(?::|$)/.exec(line)?.[1] ?? Number.NaN) / 1000,
        transformPeakRssMb: transform.peakRssMb,
        transformLog: line.slice(0, 200),
        exportWallSeconds: exported.seconds,
        exportPeakRssMb: exported.peakRssMb,
      });
      step(`night: ${JSON.stringify(figures.nights.at(-1))}`);
      await rm(db, { force: true });
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
