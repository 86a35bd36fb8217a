import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { DICTIONARY } from '../tables/index.js';
import { packageRoot } from '../util/package-root.js';
import { openingFiles, transformFiles } from './sql-files.js';
import { sqlGraph } from './sql-graph.js';
import { timestampTz } from '../duckdb/time-values.js';

/**
 * The versions of this release's SQL (docs/transform.md), each a SHA-256 of the files it covers, without their prose
 * comment lines (statementsOf): what a warehouse records in `model_versions` to say which rules made it.
 */
export interface ReleaseVersions {
  /**
   * How records are typed: the files of macros a warehouse holds while open (the helpers, the typed streams' SQL).
   */
  typing: string;
  /**
   * The type catalog: the seed files one after another in name order (`cat sql/seeds/*.csv | sha256sum`), then
   * the user's catalog file when one is given (`cat sql/seeds/*.csv mine.csv | sha256sum`).
   */
  catalog: string;
  /** Every rule the ledger is made by: the typing, the catalog, and every file the transform runs or checks with. */
  models: string;
  /**
   * What every opening makes sure of (bringOpeningUpToDate in warehouse.ts): the macros (the typing), the typed
   * tables and the comments, which the registry of tables gives.
   */
  opening: string;
}

/** What a warehouse records of the release that made it: one row of model_versions each, undefined before the first. */
export interface RecordedVersions {
  typing?: string;
  catalog?: string;
  models?: string;
  /**
   * The models' version the ledger was last made whole with, while it lies in the exports' order
   * (sql/ledger/10_ledger.sql).
   */
  ledgerOrder?: string;
  /** The release's opening version the warehouse's macros, typed tables and comments were last brought to. */
  opening?: string;
}

/**
 * What these functions need of a Warehouse (warehouse.ts, which opens the warehouse with migrations that read
 * versions).
 */
interface Queued {
  readonly path: string;
  exclusive<T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T>;
}

/** The name of each version in model_versions (named so by earlier releases). */
const NAMES: Readonly<Record<keyof RecordedVersions, string>> = {
  typing: 'typed_at_load',
  catalog: 'type_catalog',
  models: 'models',
  ledgerOrder: 'ledger_order',
  opening: 'opening',
};

/**
 * The user's own catalog rows (--catalog FILE or the config's `catalog`; docs/ledger.md, "Adding a type"), read once
 * when a command starts: the catalog's version covers them, and the transform reads the same file (userCatalogFile).
 * One per process, as the release is.
 */
let userCatalog: { path: string; bytes: Buffer } | undefined;

/** Takes the user's catalog file for this process (none: the package's rows alone). */
export async function useCatalog(path: string | undefined): Promise<void> {
  release = undefined;
  if (path === undefined) {
    userCatalog = undefined;
    return;
  }
  const absolute = resolve(path);
  try {
    userCatalog = { path: absolute, bytes: await readFile(absolute) };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(
      `--catalog ${path} cannot be read (${reason}); give a CSV file with the columns of sql/seeds/type_catalog.csv`,
      error,
    );
  }
}

/** The user's catalog the warehouse holds (table user_catalog), undefined for none. */
export interface StoredCatalog {
  file: string;
  content: string;
  sha256: string;
}

/**
 * The user's catalog rows the warehouse holds (docs/settings.md): given once with --catalog, kept for every later
 * command.
 */
export async function readStoredCatalog(c: DuckDBConnection): Promise<StoredCatalog | undefined> {
  const row = (await c.runAndReadAll('SELECT file, content, sha256 FROM user_catalog LIMIT 1')).getRows()[0];
  return row === undefined ? undefined : { file: String(row[0]), content: String(row[1]), sha256: String(row[2]) };
}

/** Keeps the user's catalog file in the warehouse, replacing the one before. */
export async function storeCatalog(c: DuckDBConnection, catalog: StoredCatalog & { now: number }): Promise<void> {
  await c.run('DELETE FROM user_catalog');
  await c.run('INSERT INTO user_catalog VALUES ($file, $sha, $content, $now)', {
    file: catalog.file,
    sha: catalog.sha256,
    content: catalog.content,
    now: timestampTz(catalog.now),
  });
}

/** Forgets the user's catalog the warehouse holds (--catalog none): the package's rows alone from now on. */
export async function forgetCatalog(c: DuckDBConnection): Promise<void> {
  await c.run('DELETE FROM user_catalog');
}

/**
 * Takes the catalog the warehouse holds for this process (none: the package's rows alone). The transform reads
 * the rows from a file (sql/seeds/00_seeds.sql), so they are written to one of their own, in a folder made for it
 * (readable by the user alone), removed when the process ends.
 */
export async function useStoredCatalog(catalog: StoredCatalog | undefined): Promise<void> {
  if (catalog === undefined) return useCatalog(undefined);
  if (storedCopy === undefined) {
    storedCopy = await mkdtemp(join(tmpdir(), 'ledgerpipe-catalog-'));
    const dir = storedCopy;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const path = join(storedCopy, `${catalog.sha256.slice(0, 16)}.csv`);
  await writeFile(path, catalog.content, { mode: 0o600 });
  return useCatalog(path);
}

/** The folder of this process's copies of stored catalogs, made on first use. */
let storedCopy: string | undefined;

/** The user's catalog file the transform reads (sql/seeds/00_seeds.sql), undefined for none. */
export const userCatalogFile = (): string | undefined => userCatalog?.path;

/** This release's versions, read once a process: every loader, transform and export of it asks. */
export function releaseVersions(): Promise<ReleaseVersions> {
  release ??= (async () => {
    const typing = sha256((await openingFiles()).map((f) => statementsOf(f.text)));
    // The user's rows after the package's: without them, the version is the package's alone.
    const catalog = sha256([...(await seedFiles()), ...(userCatalog === undefined ? [] : [userCatalog.bytes])]);
    const graph = await sqlGraph();
    const rules = [...(await transformFiles()), ...graph.folder('values'), ...graph.folder('checks')];
    const models = sha256([typing, catalog, ...rules.flatMap((f) => [f.name, statementsOf(f.text)])]);
    const opening = sha256([typing, JSON.stringify(DICTIONARY)]);
    return { typing, catalog, models, opening };
  })();
  return release;
}

let release: Promise<ReleaseVersions> | undefined;

/**
 * A file of sql/ without its prose comment lines: what its statements do, and its header (`-- creates:`, `-- reads:`,
 * `-- params:`, `-- result:`), which orders and binds it. A comment mended is no new version, so it does not make
 * every warehouse rebuild its ledger and recompute its gains at the next transform. No string of sql/ spans a line
 * that starts with `--` (test/warehouse/versions.test.ts), so no statement's text is taken for a comment.
 */
export const statementsOf = (text: string): string =>
  text.replace(/^[ \t]*--(?! (?:creates|reads|params|result):).*\n?/gm, '');

function sha256(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/** The seed files (`sql/seeds/*.csv`), in name order, as bytes. */
async function seedFiles(): Promise<Buffer[]> {
  const dir = join(packageRoot(), 'sql', 'seeds');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.csv')).sort();
  return Promise.all(names.map((n) => readFile(join(dir, n))));
}

/** Every version a warehouse records, read at once. */
export async function readRecordedVersions(c: DuckDBConnection): Promise<RecordedVersions> {
  const rows = new Map(
    (await c.runAndReadAll('SELECT name, version FROM model_versions'))
      .getRows()
      .map((r) => [String(r[0]), String(r[1])]),
  );
  const recorded: RecordedVersions = {};
  for (const [key, name] of Object.entries(NAMES) as [keyof RecordedVersions, string][]) {
    const version = rows.get(name);
    if (version !== undefined) recorded[key] = version;
  }
  return recorded;
}

/** Records each version given, replacing the one before. */
export async function recordVersions(c: DuckDBConnection, versions: RecordedVersions, now: number): Promise<void> {
  for (const [key, version] of Object.entries(versions) as [keyof RecordedVersions, string][]) {
    await c.run('INSERT OR REPLACE INTO model_versions VALUES ($name, $version, $now)', {
      name: NAMES[key],
      version,
      now: timestampTz(now),
    });
  }
}

/** Forgets a version: nothing holds for it any more (a ledger no longer in the exports' order). */
export async function forgetVersion(c: DuckDBConnection, key: keyof RecordedVersions): Promise<void> {
  await c.run('DELETE FROM model_versions WHERE name = $name', { name: NAMES[key] });
}

/**
 * Whether the ledger's rows lie in the exports' order (ts, entry_id, account), so that an export may read them
 * as they lie instead of sorting them: sorting the ledger of 983k fills took its CSV and Parquet 9.6-12.2 s
 * against 5.4-5.9 s (docs/performance.md, "Memory").
 */
export async function ledgerInExportOrder(warehouse: Pick<Queued, 'exclusive'>): Promise<boolean> {
  const { models } = await releaseVersions();
  return (await warehouse.exclusive(readRecordedVersions)).ledgerOrder === models;
}

/**
 * Refuses files made from models that are not this release's last transform of every loaded record: records are
 * typed into their tables as they load, but the ledger takes them in at the next transform, and a set of files
 * whose futures_fills and ledger disagree must never be written.
 */
export async function assertTransformed(warehouse: Queued): Promise<void> {
  const [recorded, pending] = await warehouse.exclusive(async (c) => [
    await readRecordedVersions(c),
    Number((await c.runAndReadAll('SELECT count(*) FROM (SELECT DISTINCT * FROM pending_changes)')).getRows()[0]?.[0]),
  ]);
  const release = await releaseVersions();
  if (recorded.models !== release.models && recorded.catalog !== undefined && recorded.catalog !== release.catalog) {
    throw new UsageError(
      `${warehouse.path} was last transformed with another type catalog (another release's, or another --catalog); run ledgerpipe transform with the --catalog you export with (or none), then export`,
    );
  }
  if (recorded.models !== release.models)
    throw new UsageError(
      `${warehouse.path} has not been transformed by this release of ledgerpipe; run ledgerpipe transform, then export`,
    );
  if (pending > 0)
    throw new UsageError(
      `${warehouse.path} has ${pending} records loaded since its last transform; run ledgerpipe transform, then export`,
    );
}
