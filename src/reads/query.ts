import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { DuckDBInstance, DuckDBTypeId, StatementType } from '../duckdb/duckdb.js';
import { UsageError } from '../errors/usage-error.js';
import { readdir, realpath } from 'node:fs/promises';
import { join, parse, resolve } from 'node:path';
import { ident, literal } from '../duckdb/quote.js';
import { describeOpenError } from '../warehouse/warehouse.js';
import { lockSession, startSession } from '../duckdb/session.js';

/**
 * How `query` opens the warehouse: read-only, with no access to any file but the warehouse (no COPY TO, no
 * read_csv or read_text of other files, no ATTACH), and no extension installed or loaded. After the session is
 * set up, the configuration is locked, so a statement cannot SET its way back.
 */
const LOCKED_DOWN = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
} as const;

/** Leading comments, then EXPLAIN with its options: what wraps the statement an EXPLAIN runs. */
const EXPLAIN_PREFIX = /^\s*(?:(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)\s*)*explain\s+(?:analy[sz]e\s+|\([^)]*\)\s*)?/i;

/**
 * The one statement of `sql`, prepared, when it only reads: a SELECT (DESCRIBE, SHOW and FROM-first queries
 * are SELECTs), or an EXPLAIN of one, which is checked inside: EXPLAIN ANALYZE runs what it explains.
 */
async function preparedRead(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let statements;
  try {
    statements = await connection.extractStatements(sql);
  } catch (error) {
    throw new UsageError(`the query does not parse: ${(error as Error).message.split('\n')[0]}`, error);
  }
  if (statements.count !== 1) throw new UsageError(`give one statement to query, not ${statements.count}`);
  let prepared;
  try {
    prepared = await statements.prepare(0);
  } catch (error) {
    throw new UsageError(`the query cannot run: ${(error as Error).message.split('\n')[0]}`, error);
  }
  const refuse = (type: StatementType) =>
    new UsageError(`query only reads; this statement (${StatementType[type]}) would change something — use a SELECT`);
  if (prepared.statementType === StatementType.SELECT) return prepared;
  if (prepared.statementType !== StatementType.EXPLAIN) throw refuse(prepared.statementType);
  const explained = sql.replace(EXPLAIN_PREFIX, '');
  if (explained === sql) throw new UsageError('query cannot tell what this EXPLAIN runs; write it as EXPLAIN <select>');
  const inner = await preparedRead(connection, explained);
  if (inner.statementType !== StatementType.SELECT) throw refuse(inner.statementType);
  return prepared;
}

/** A query's result as DuckDB streams it: its columns, which of them are text, and its rows chunk by chunk. */
export interface QueryResult {
  columns: string[];
  /** Per column, whether it is text (VARCHAR): numbers and times are not. */
  textColumns: boolean[];
  /** The rows in DuckDB's chunks (2,048 rows), values as DuckDB's own text forms, so decimals are exact. */
  chunks: AsyncIterable<(string | null)[][]>;
}

/** A decimal's text without trailing zeros after the point, and no minus on zero (docs/files.md). */
export function plainDecimal(text: string): string {
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}

/** Runs `sql` on a connection already set up and locked, and hands its streamed result to `use`. */
async function runRead<T>(
  connection: DuckDBConnection,
  sql: string,
  use: (result: QueryResult) => Promise<T>,
): Promise<T> {
  const prepared = await preparedRead(connection, sql);
  const cannotRun = (error: unknown) =>
    new UsageError(`the query cannot run: ${(error as Error).message.split('\n')[0]}`, error);
  const result = await prepared.stream().catch((error: unknown) => Promise.reject(cannotRun(error)));
  // Decimals as the CSV files write them (lp_decimal_text): -176.40115521, not -176.401155210000000000.
  const decimal = result.columnTypes().map((t) => t.typeId === DuckDBTypeId.DECIMAL);
  const text = (v: unknown, i: number): string | null =>
    v === null ? null : decimal[i] === true ? plainDecimal(String(v)) : String(v);
  async function* chunks(): AsyncIterable<(string | null)[][]> {
    for (;;) {
      const chunk = await result.fetchChunk().catch((error: unknown) => Promise.reject(cannotRun(error)));
      if (chunk === null || chunk.rowCount === 0) return;
      yield chunk.getRows().map((row) => row.map(text));
    }
  }
  return use({
    columns: result.columnNames(),
    textColumns: result.columnTypes().map((t) => t.typeId === DuckDBTypeId.VARCHAR),
    chunks: chunks(),
  });
}

/**
 * Runs one read-only statement on the warehouse, opened read-only and locked down (LOCKED_DOWN), and hands its
 * result to `use` while the warehouse is open. A write is refused before it runs; a read of any other file
 * fails. How the result is printed is cli/query-output.ts's.
 *
 * @example
 * await withQuery('./ledgerpipe.duckdb', 'SELECT count(*) FROM ledger', async (result) => { for await (const rows of result.chunks) ... });
 */
export async function withQuery<T>(path: string, sql: string, use: (result: QueryResult) => Promise<T>): Promise<T> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, LOCKED_DOWN);
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const connection = await instance.connect();
  try {
    await startSession(connection);
    await lockSession(connection);
    return await runRead(connection, sql, use);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Runs one read-only statement over a lake (`query --lake`; docs/many-accounts.md), in a database of its own
 * in memory: one view per table folder of the lake, over every partition (`account` and `year` from the paths),
 * and `lake_partitions` over their `_manifest.json`. DuckDB may read the lake's folder and nothing else, and its
 * configuration is locked before the statement runs; the statement is held to the same read-only check.
 */
export async function withLakeQuery<T>(
  lake: string,
  sql: string,
  use: (result: QueryResult) => Promise<T>,
): Promise<T> {
  const root = await lakeRoot(lake);
  const tables = await lakeTables(root);
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  try {
    await startSession(connection);
    // Before the views, whose files must come from the lake alone.
    await lockSession(connection, { onlyDirectory: root });
    for (const table of tables) {
      const files = literal(join(root, table, '*', '*', 'data.parquet'));
      await connection.run(
        `CREATE VIEW ${ident(table)} AS SELECT * FROM read_parquet(${files}, hive_partitioning = true, hive_types = {'account': VARCHAR, 'year': INTEGER})`,
      );
    }
    if (tables.length > 0) {
      const manifests = literal(join(root, '*', '*', '*', '_manifest.json'));
      await connection.run(
        `CREATE VIEW lake_partitions AS SELECT "table", account, "year", "rows", complete, coverage, written_at, sha256 FROM read_json(${manifests}, format = 'auto')`,
      );
    }
    return await runRead(connection, sql, use);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The lake's folder as DuckDB will be allowed it: its real path, never the file system's root, and with no
 * symbolic link anywhere inside. DuckDB checks a path's text, not where a link leads: a link in the lake would
 * let a statement read what it points at.
 */
async function lakeRoot(lake: string): Promise<string> {
  let root: string;
  try {
    root = await realpath(resolve(lake));
  } catch (error) {
    throw new UsageError(
      `cannot read --lake ${lake} (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the folder a run wrote with --lake`,
      error,
    );
  }
  if (root === parse(root).root)
    throw new UsageError(`--lake ${lake} is the root of the file system; give the folder a run wrote with --lake`);
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink())
        throw new UsageError(
          `--lake ${lake} holds a symbolic link, ${path}; query reads only a lake of plain files and folders`,
        );
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return root;
}

/** The table folders of a lake: those with a partition in them. */
async function lakeTables(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  const tables = entries
    .filter((e) => e.isDirectory() && /^[a-z_][a-z0-9_]*$/.test(e.name))
    .map((e) => e.name)
    .sort();
  if (tables.length === 0)
    throw new UsageError(`--lake ${root} holds no table; give the folder a run wrote with --lake`);
  return tables;
}
