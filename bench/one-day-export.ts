/**
 * What a night costs against the size of the history (issue 45, "Gains kept, not recomputed"): one simulator year
 * of futures fills with its withdrawals, extracted once and shaped into histories of 100k and 1M fills
 * (bench/incremental.ts's shapeHistory). The year's last day is held back; the rest is transformed whole and
 * exported up to that day, as the nights before left the warehouse. Then the day is loaded as extraction loads it
 * (pending_changes), transformed, and `ledgerpipe export` of that day alone (CSV) runs as a user runs it, in a
 * process of its own at the default budget: the export whose gains take in the day's movements. A second export
 * of the same day, with nothing new, follows. Wall time and peak RSS of each. Then a year's transform and export
 * against the plain one-pass script (bench/transform-export.ts).
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from '../src/extract/extractor.js';
import { createSignedClient } from '../src/http/client.js';
import { futuresFills } from '../src/streams/futures-fills.js';
import { withdrawals } from '../src/streams/withdrawals.js';
import { runTransforms } from '../src/transform/runner.js';
import { extractionMemoryBudget } from '../src/duckdb/memory-budget.js';
import { createRawWriter, type LoadRecord } from '../src/load/raw-writer.js';
import { openWarehouse, type Warehouse } from '../src/warehouse/warehouse.js';
import { cli, shapeHistory } from './incremental.js';
import { measureTransformExport, type TransformExportFigures } from './transform-export.js';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface OneDayFigures {
  fills: number;
  /** The day's fills loaded (the night). */
  nightFills: number;
  /** `ledgerpipe export` of the day, its movements new to the gains: wall time and peak RSS of the process. */
  exportSeconds: number;
  exportPeakRssMb: number;
  /** The same export again, nothing new. */
  againSeconds: number;
  againPeakRssMb: number;
}

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
/** The day exported: the year's last. */
const DAY = TO - DAY_MS;

/** One raw record held back, as raw_records holds it. */
interface HeldRecord {
  stream: string;
  partition: string;
  key: string;
  ts: number;
  payload: string;
}

/** A warehouse as the nights before the last left it, and the last night's records, not yet loaded. */
export interface PreparedNight {
  db: string;
  night: HeldRecord[];
  fills: number;
}

/** Extracts one simulator year of `records` fills (and its withdrawals) into `db`; returns the fills held. */
export async function extractYear(db: string, records: number, seed: string): Promise<number> {
  const { child, info } = await spawnSimulator({
    records,
    rateScale: 1000,
    startTimeoutMs: 300_000,
    seed,
    pendingSeconds: 0,
  });
  try {
    const warehouse = await openWarehouse(db);
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
      return result.streams['futures_fills']?.records ?? 0;
    } finally {
      await client.close();
      await warehouse.close();
    }
  } finally {
    await stopChild(child);
  }
}

/** Takes the records of the last day out of raw_records, to be loaded later as that night's. */
export async function holdBackNight(warehouse: Warehouse): Promise<HeldRecord[]> {
  const where = `ts >= make_timestamptz(${DAY * 1000})`;
  const rows = (
    await warehouse.connection.runAndReadAll(
      `SELECT stream, partition, key, epoch_ms(ts), CAST(payload AS VARCHAR) FROM raw_records WHERE ${where} ORDER BY stream, partition, ts, key`,
    )
  ).getRows();
  await warehouse.connection.run(`DELETE FROM raw_records WHERE ${where}`);
  return rows.map((r) => ({
    stream: String(r[0]),
    partition: String(r[1]),
    key: String(r[2]),
    ts: Number(r[3]),
    payload: String(r[4]),
  }));
}

/**
 * An --opening-lots file of what the account held before the year, bought at one USDT each: per account and
 * coin, the deepest its running total goes below zero (in the engine's order, time then entry), and 1% of what it
 * pays out besides (the night held back pays out too). Without them every export of the year would say its
 * disposals lack acquisitions (exit 4); with much more, every lot acquired in the year would stay open behind them.
 * Read from a transformed warehouse.
 */
export async function writeOpeningLots(warehouse: Warehouse, file: string): Promise<void> {
  const rows = (
    await warehouse.connection.runAndReadAll(
      `SELECT account, asset, CAST(ceil(greatest(0, -min(running)) + 0.01 * sum(-amount) FILTER (WHERE amount < 0)) AS BIGINT)
     FROM (SELECT account, asset, amount, sum(amount) OVER (PARTITION BY account, asset ORDER BY ts, entry_id ROWS UNBOUNDED PRECEDING) AS running FROM ledger WHERE asset <> 'USDT')
     GROUP BY ALL HAVING min(running) < 0 ORDER BY ALL`,
    )
  ).getRows();
  const lines = rows.map(
    ([account, asset, quantity]) =>
      `${String(account)},${String(asset)},${String(quantity)},${String(quantity)},USDT,2024-12-01`,
  );
  await writeFile(file, ['account,asset,quantity,cost,currency,acquired_at', ...lines, ''].join('\n'));
}

/** Loads held records as extraction does: pages of 100 through the raw writer, noted in pending_changes. */
export async function loadNight(warehouse: Warehouse, night: readonly HeldRecord[]): Promise<void> {
  const writer = await createRawWriter(warehouse, { account: 'default', runId: 'night', clock: Date.now });
  const pages: { stream: string; partition: string; records: LoadRecord[] }[] = [];
  for (const row of night) {
    let page = pages.at(-1);
    if (
      page === undefined ||
      page.stream !== row.stream ||
      page.partition !== row.partition ||
      page.records.length === 100
    )
      pages.push((page = { stream: row.stream, partition: row.partition, records: [] }));
    page.records.push({ key: row.key, ts: row.ts, payload: row.payload });
  }
  await warehouse.withMemoryLimit(extractionMemoryBudget(), () =>
    Promise.all(
      pages.map((p) => writer.commit({ ...p, cursor: null, done: true, tie: false, drift: [], quarantine: [] })),
    ),
  );
}

/**
 * A history of `fills` fills made from the extracted year in `base`, its last day held back, transformed whole and
 * exported up to that day by `main` (the CLI whose gains it keeps).
 */
export async function prepareNight(
  base: string,
  held: number,
  fills: number,
  dir: string,
  main: string,
  signal: AbortSignal,
): Promise<PreparedNight & { lots: string }> {
  const db = join(dir, `one-day-${fills}.duckdb`);
  const lots = join(dir, `opening-${fills}.csv`);
  await copyFile(base, db);
  const warehouse = await openWarehouse(db);
  let night: HeldRecord[];
  let total: number;
  try {
    await warehouse.withMemoryLimit('4GB', () => shapeHistory(warehouse, held, fills));
    night = await holdBackNight(warehouse);
    await runTransforms(warehouse, { full: true });
    await writeOpeningLots(warehouse, lots);
    total =
      Number((await warehouse.connection.runAndReadAll('SELECT count(*) FROM futures_fills')).getRows()[0]?.[0]) +
      night.filter((r) => r.stream === 'futures_fills').length;
  } finally {
    await warehouse.close();
  }
  await cli(
    [
      'export',
      '--from',
      isoDay(DAY - DAY_MS),
      '--to',
      isoDay(DAY),
      '--format',
      'csv',
      '--opening-lots',
      lots,
      '--db',
      db,
      '--out',
      join(dir, `before-${fills}`),
      '--quiet',
    ],
    dir,
    signal,
    main,
  );
  return { db, night, fills: total, lots };
}

/** The night loaded and transformed (no gains: runTransforms alone), then the day's export twice. */
export async function measureNight(
  prepared: PreparedNight,
  dir: string,
  main: string,
  signal: AbortSignal,
): Promise<OneDayFigures> {
  const warehouse = await openWarehouse(prepared.db);
  try {
    await loadNight(warehouse, prepared.night);
    await runTransforms(warehouse);
  } finally {
    await warehouse.close();
  }
  const args = [
    'export',
    '--from',
    isoDay(DAY),
    '--to',
    isoDay(TO),
    '--format',
    'csv',
    '--db',
    prepared.db,
    '--out',
    join(dir, `day-${prepared.fills}`),
    '--quiet',
  ];
  const first = await cli(args, dir, signal, main);
  const again = await cli(args, dir, signal, main);
  return {
    fills: prepared.fills,
    nightFills: prepared.night.filter((r) => r.stream === 'futures_fills').length,
    exportSeconds: first.seconds,
    exportPeakRssMb: first.peakRssMb,
    againSeconds: again.seconds,
    againPeakRssMb: again.peakRssMb,
  };
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * What the benchmark export-scale measures (bench/run.ts): the nights of both histories, and a year's transform and
 * export.
 */
export interface ExportScaleFigures {
  nights: OneDayFigures[];
  transformExport: TransformExportFigures;
}

/**
 * Both histories' nights, one after the other, then the transform and export of the larger against the one-pass
 * script (bench/transform-export.ts), each with the CLI of this build, from one extraction.
 */
export async function measureExportScale(signal: AbortSignal, quick = false): Promise<ExportScaleFigures> {
  const sizes = quick ? [10_000, 100_000] : [100_000, 1_000_000];
  const dir = await mkdtemp(join(tmpdir(), 'lp-export-scale-'));
  try {
    const base = join(dir, 'base.duckdb');
    const held = await extractYear(base, sizes.at(-1) as number, 'one-day');
    const nights: OneDayFigures[] = [];
    let lots = '';
    for (const fills of sizes) {
      const prepared = await prepareNight(base, held, fills, dir, MAIN, signal);
      nights.push(await measureNight(prepared, dir, MAIN, signal));
      process.stderr.write(`export-scale: ${JSON.stringify(nights.at(-1))}\n`);
      await rm(prepared.db, { force: true });
      lots = prepared.lots;
    }
    const transformExport = await measureTransformExport(base, lots, dir, signal);
    process.stderr.write(`export-scale: ${JSON.stringify(transformExport)}\n`);
    return { nights, transformExport };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MAIN = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
