import type { DuckDBConnection } from '@duckdb/node-api';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STREAM_MODELS, TYPED_AT_LOAD } from '../models/index.js';
import { packageRoot } from '../util/package-root.js';

export interface SqlFile {
  /** Path relative to `sql/`, e.g. `warehouse/001_bookkeeping.sql`. */
  name: string;
  text: string;
}

/** The `.sql` files of one folder under `sql/`, in name order (their numeric prefixes order them). */
export async function readSqlFolder(folder: string): Promise<SqlFile[]> {
  const dir = join(packageRoot(), 'sql', folder);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(names.map(async (n) => ({ name: `${folder}/${n}`, text: await readFile(join(dir, n), 'utf8') })));
}

/** One file under `sql/`, by its path there (`ledger/10_ledger.sql`). */
export async function readSqlFile(name: string): Promise<SqlFile> {
  return { name, text: await readFile(join(packageRoot(), 'sql', name), 'utf8') };
}

/** The SQL model of a stream (`models/<stream>.sql`). */
export const streamModelFile = (stream: string): string => `models/${stream}.sql`;

/** The typing of every stream typed at load, made from the streams' columns (src/warehouse/typing-sql.ts). */
export const TYPING_FILE = 'generated/typing.sql';

/**
 * The files whose macros a warehouse holds whenever it is open (docs/transform.md): the helpers of
 * `sql/macros/`, the SQL model of each stream typed at load, whose legs the ledger reads, then their typing, which the
 * raw writer runs as records load (after the models: DuckDB binds a macro's functions when it is made).
 */
export async function openingFiles(): Promise<SqlFile[]> {
  const typed = TYPED_AT_LOAD.map((m) => readSqlFile(streamModelFile(m.name)));
  return [...(await readSqlFolder('macros')), ...(await Promise.all(typed)), await readSqlFile(TYPING_FILE)];
}

/**
 * The models made from raw_records by the transform, each with its file: the streams not typed at load, whose
 * SQL model is a table (P2P advertisements, balance snapshots).
 */
export const RAW_MADE_MODELS: readonly { stream: string; file: string }[] = STREAM_MODELS.filter((m) => m.typedAtLoad === undefined).map((m) => ({
  stream: m.name,
  file: streamModelFile(m.name),
}));

/** The models that prove the export complete or show where it is not (balances, breaks, holdings): after the ledger. */
export const COMPLETENESS_FOLDER = 'completeness';

/**
 * The files a transform runs, in order: the seeds (the type catalog), the models made from the registry (the
 * typed streams' views, the legs: sql/generated/models.sql), the models made from raw_records, and the ledger's.
 */
export async function transformFiles(): Promise<SqlFile[]> {
  return [
    ...(await readSqlFolder('seeds')),
    await readSqlFile('generated/models.sql'),
    ...(await Promise.all(RAW_MADE_MODELS.map((m) => readSqlFile(m.file)))),
    ...(await readSqlFolder('ledger')),
    ...(await readSqlFolder(COMPLETENESS_FOLDER)),
  ];
}

/** The file of `files` named `name` (as SqlFile.name); a name that is not among them is a bug of ledgerpipe's own. */
export function sqlFileNamed(files: readonly SqlFile[], name: string): SqlFile {
  const file = files.find((f) => f.name === name);
  if (file === undefined) throw new Error(`the transform has no ${name}`);
  return file;
}

/**
 * Runs the statements of `file` one after another on `c`, and returns what each reports: the rows a DELETE,
 * INSERT or CREATE TABLE ... AS wrote, or the number a statement selects alone (a count); 0 for the others. Each
 * statement is prepared when its turn comes, so a statement may read what the ones before it made.
 */
export async function runSqlFile(c: DuckDBConnection, file: SqlFile): Promise<number[]> {
  const statements = await c.extractStatements(file.text);
  const counts: number[] = [];
  for (let i = 0; i < statements.count; i++) {
    const rows = (await (await statements.prepare(i)).runAndReadAll()).getRows();
    const only = rows.length === 1 && rows[0]?.length === 1 ? rows[0][0] : undefined;
    counts.push(typeof only === 'bigint' || typeof only === 'number' ? Number(only) : 0);
  }
  return counts;
}
