import { STREAM_TABLES, TYPED_AT_LOAD } from '../tables/index.js';
import { sqlGraph, type SqlFile } from './sql-graph.js';

/**
 * The SQL of a stream (`models/<stream>.sql`). The folder keeps its name: the models' version hashes the names of the
 * files the transform runs (versions.ts), and a new name would have every warehouse transformed again.
 */
export const streamSqlFile = (stream: string): string => `models/${stream}.sql`;

/** The typing of every stream typed at load, made from the streams' columns (src/warehouse/typing-sql.ts). */
export const TYPING_FILE = 'generated/typing.sql';

/**
 * The files whose macros a warehouse holds whenever it is open (docs/transform.md): the helpers of
 * `sql/macros/`, the SQL of each stream typed at load, whose legs the ledger reads, and their typing
 * (generated/typing.sql), which the raw writer runs as records load; in the graph's order (the typing reads the
 * streams' macros: DuckDB binds a macro's functions when it is made).
 *
 * @example
 * for (const file of await openingFiles()) await runModel(c, file.name); // macros/00_macros.sql, models/futures_fills.sql, ...
 */
export async function openingFiles(): Promise<SqlFile[]> {
  const names = new Set([...TYPED_AT_LOAD.map((m) => streamSqlFile(m.name)), TYPING_FILE]);
  return (await sqlGraph()).files.filter((f) => f.name.startsWith('macros/') || names.has(f.name));
}

/**
 * The models made from raw_records by the transform, each with its file: the streams not typed at load, whose
 * SQL makes a table (P2P advertisements, balance snapshots).
 */
export const RAW_MADE_MODELS: readonly { stream: string; file: string }[] = STREAM_TABLES.filter(
  (m) => m.typedAtLoad === undefined,
).map((m) => ({
  stream: m.name,
  file: streamSqlFile(m.name),
}));

/** The models that prove the export complete or show where it is not (balances, breaks, holdings): after the ledger. */
export const COMPLETENESS_FOLDER = 'completeness';

/**
 * The files a transform runs, in the graph's order: the seeds (the type catalog), the models made from the registry
 * (the typed streams' views, the legs: sql/generated/models.sql), the models made from raw_records, the ledger's,
 * and those of completeness.
 *
 * @example
 * (await transformFiles()).map((f) => f.name); // ['seeds/00_seeds.sql', ..., 'generated/models.sql', 'ledger/10_ledger.sql', ...]
 */
export async function transformFiles(): Promise<SqlFile[]> {
  const raw = new Set(RAW_MADE_MODELS.map((m) => m.file));
  const folders = ['seeds/', 'ledger/', `${COMPLETENESS_FOLDER}/`];
  return (await sqlGraph()).files.filter(
    (f) => f.name === 'generated/models.sql' || raw.has(f.name) || folders.some((d) => f.name.startsWith(d)),
  );
}
