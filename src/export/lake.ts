import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EXPORTED_TABLES } from '../tables/index.js';
import { formatInstant } from '../time/instant.js';
import type { Window } from '../time/window.js';
import { packageVersion } from '../util/package-root.js';
import { ident, literal } from '../duckdb/quote.js';
import { coverageOfRange } from '../reads/coverage.js';
import { readCatalogVersion } from '../reads/reports.js';
import { assertTransformed } from '../warehouse/versions.js';
import { timestampTzSql } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { tempName } from './export-set.js';
import { columnsOf, runCopies, type CopyJob } from './exporter.js';
import { sha256, spans } from './manifest.js';

/** The file of a partition, and its description beside it. */
export const LAKE_DATA = 'data.parquet';
export const LAKE_MANIFEST = '_manifest.json';

export interface LakeOptions {
  /** The lake's folder (--lake). */
  lake: string;
  /** The run's range: every UTC year it touches is written whole. */
  range: Window;
  /** The accounts to write; default every account the warehouse holds. */
  accounts?: readonly string[];
  /** The mode of the lake's files (config `lakeMode`); folders get it with x wherever it has r. */
  mode?: number;
  now: number;
}

/** One partition written: its table, account, year, folder and rows. */
export interface LakePartition {
  table: string;
  account: string;
  year: number;
  dir: string;
  rows: number;
}

/**
 * A partition value as Hive writes it in a path: `%XX` for the characters its FileUtils escapes (quotes, `#`,
 * `%`, `*`, `/`, `:`, `=`, `?`, `\`, `{`, `[`, `]`, `^`, DEL and control characters), every other as it is.
 */
export function escapeHivePathName(value: string): string {
  // Control characters are exactly what Hive's escaping replaces (the linter's no-control-regex takes them for a
  // mistake; here they are meant).
  return value.replace(
    // oxlint-disable-next-line no-control-regex
    /["#%'*/:=?\\{[\]^\u0000-\u001f\u007f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** The UTC years `[start, end)` touches. */
function yearsOf(range: Window): number[] {
  const first = new Date(range.start).getUTCFullYear();
  const last = new Date(range.end - 1).getUTCFullYear();
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

const yearWindow = (year: number): Window => ({ start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) });

async function accountsHeld(warehouse: Warehouse): Promise<string[]> {
  return warehouse.exclusive(async (c) =>
    (await c.runAndReadAll('SELECT DISTINCT account FROM coverage ORDER BY 1')).getRows().map((r) => String(r[0])),
  );
}

/**
 * Writes the lake (docs/many-accounts.md): every exported table as Hive-partitioned Parquet,
 * `<lake>/<table>/account=<name>/year=<yyyy>/data.parquet`, for each account of the run and each UTC year its
 * range touches. A partition holds every row of its account and year the warehouse has (not only the range's: a
 * shorter range must not empty it), without the two partition columns, which readers take from the path. Each
 * is written under a temporary name and renamed into place, so a reader sees the old file or the new one, never
 * half of one; `_manifest.json` beside it says its rows, SHA-256 and the warehouse's coverage of that year, so
 * an incomplete partition is visible. Partitions of other accounts (other shards) are never touched.
 */
export async function writeLake(warehouse: Warehouse, options: LakeOptions): Promise<LakePartition[]> {
  await assertTransformed(warehouse);
  const accounts = options.accounts ?? (await accountsHeld(warehouse));
  const years = yearsOf(options.range);
  const catalog = (await readCatalogVersion(warehouse))?.version ?? null;
  const jobs: (CopyJob & { partition: LakePartition })[] = [];
  for (const { name: table, key, omit } of EXPORTED_TABLES) {
    const columns = (await columnsOf(warehouse, table))
      .filter((c) => c.name !== 'account' && !(omit ?? []).includes(c.name))
      .map((c) => ident(c.name));
    for (const account of accounts) {
      for (const year of years) {
        const dir = resolve(join(options.lake, table, `account=${escapeHivePathName(account)}`, `year=${year}`));
        await makeDirs(dir, options.mode);
        const temp = join(dir, tempName(LAKE_DATA));
        const { start, end } = yearWindow(year);
        const select = `SELECT ${columns.join(', ')} FROM ${ident(table)} WHERE account = ${literal(account)} AND ts >= ${timestampTzSql(start)} AND ts < ${timestampTzSql(end)} ORDER BY ts, ${ident(key)}`;
        jobs.push({
          file: { temp, final: join(dir, LAKE_DATA), rows: 0 },
          sql: `COPY (${select}) TO ${literal(temp)} (FORMAT parquet, COMPRESSION snappy)`,
          partition: { table, account, year, dir, rows: 0 },
        });
      }
    }
  }
  await runCopies(warehouse, jobs);
  for (const job of jobs) {
    const { partition } = job;
    partition.rows = job.file.rows;
    // The ledger is of every stream the account holds; each other table of its own stream.
    const streams = sourceStreams(partition.table);
    const held = await coverageOfRange(warehouse, {
      range: yearWindow(partition.year),
      now: options.now,
      accounts: [{ name: partition.account, end: options.now }],
      ...(streams === undefined ? {} : { streams }),
    });
    const manifest = {
      table: partition.table,
      account: partition.account,
      year: partition.year,
      rows: partition.rows,
      sha256: await sha256(job.file.temp),
      complete: held.length > 0 && held.every((c) => c.gaps.length === 0),
      coverage: held.map((c) => ({ stream: c.stream, covered: spans(c.covered), gaps: spans(c.gaps) })),
      written_at: formatInstant(options.now),
      ledgerpipe_version: packageVersion(),
      catalog_version: catalog,
    };
    const manifestTemp = join(partition.dir, tempName(LAKE_MANIFEST));
    await writeFile(manifestTemp, `${JSON.stringify(manifest, null, 2)}\n`);
    if (options.mode !== undefined) {
      await chmod(job.file.temp, options.mode);
      await chmod(manifestTemp, options.mode);
    }
    await rename(job.file.temp, job.file.final);
    await rename(manifestTemp, join(partition.dir, LAKE_MANIFEST));
  }
  return jobs.map((j) => j.partition);
}

/**
 * Creates `dir` and the folders above it that are missing, those with the lake's folder mode when one is set.
 * Folders that were there are left as they are: the lake's root may belong to someone else (a shared volume).
 */
async function makeDirs(dir: string, mode: number | undefined): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (mode === undefined || first === undefined) return;
  const dirMode = mode | ((mode & 0o444) >> 2);
  for (let d = dir; ; d = resolve(d, '..')) {
    await chmod(d, dirMode);
    if (d === resolve(first)) break;
  }
}

/** The streams a table's rows come from: a partition is complete when these cover its year. */
function sourceStreams(table: string): readonly string[] | undefined {
  return table === 'ledger' ? undefined : [table];
}
