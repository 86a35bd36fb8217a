import { access, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../duckdb/duckdb.js';
import { UsageError } from '../errors/usage-error.js';
import { WarehouseError } from '../errors/warehouse-error.js';
import { createMacros } from './macros.js';
import { inTransaction } from '../duckdb/transaction.js';
import { describeWarehouse } from './dictionary.js';
import { syncTypedTables } from './typed-at-load.js';
import { readRecordedVersions, recordVersions, releaseVersions } from './versions.js';
import { memoryBudget } from '../duckdb/memory-budget.js';
import { migrate, pendingMigrations } from './migrations.js';
import { setSettings, startSession } from '../duckdb/session.js';

/** An open DuckDB warehouse: one connection, UTC session, bookkeeping tables in place. */
export interface Warehouse {
  readonly path: string;
  /**
   * The connection itself, outside the queue: for tests and one-off tools that run nothing else at the same
   * time. The program goes through `exclusive` and `transaction`.
   */
  readonly connection: DuckDBConnection;
  /** Runs `work` inside BEGIN ... COMMIT, rolling back if it throws; queued behind any other work. */
  transaction<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Runs `work` alone on the connection, queued behind any other work, without a transaction of its own. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /**
   * Runs `work` with DuckDB held to `limit` (a size DuckDB accepts), then restores the warehouse's budget. The
   * budget is the whole instance's: calls must not overlap. If `work` fails, its error is the one thrown.
   */
  withMemoryLimit<T>(limit: string, work: () => Promise<T>): Promise<T>;
  /** Opens another connection to the same database, in a UTC session: for reading while `connection` works. */
  connect(): Promise<DuckDBConnection>;
  /** Closes once queued work has finished: closing under a running query would crash the process. */
  close(): Promise<void>;
}

/** Turns DuckDB's open failures into one clear line: a lock held by another process is exit 75. */
export function describeOpenError(path: string, error: unknown): WarehouseError {
  const message = error instanceof Error ? error.message : String(error);
  if (/Could not set lock on file/i.test(message)) {
    const pid = /PID (\d+)/.exec(message)?.[1];
    return new WarehouseError(
      `${path} is in use by another process${pid === undefined ? '' : ` (PID ${pid})`}; wait for it to finish, then try again`,
      'LP_LOCKED',
      'locked',
      error,
    );
  }
  if (/No space left/i.test(message))
    return new WarehouseError(
      `cannot write ${path}: the disk is full; free space and run again`,
      'LP_DISK_FULL',
      'unexpected',
      error,
    );
  return new WarehouseError(
    `cannot open warehouse ${path}: ${message.split('\n')[0]}; check --db`,
    'LP_WAREHOUSE_OPEN',
    'usage',
    error,
  );
}

/**
 * DuckDB's worker threads: one per core unless LEDGERPIPE_THREADS says otherwise (docs/memory.md). Fewer
 * suit a machine shared with other work: the test suite runs each CLI with one, beside the others on 2 cores.
 */
function threadsSetting(): { threads?: string } {
  const threads = process.env['LEDGERPIPE_THREADS'];
  if (threads === undefined || threads === '') return {};
  if (!/^[1-9]\d{0,3}$/.test(threads))
    throw new UsageError(
      `LEDGERPIPE_THREADS=${threads} is not a number of threads; use a whole number from 1, such as 2`,
    );
  return { threads };
}

/** Holds DuckDB (the whole instance) to `limit`. */
async function setMemoryLimit(connection: DuckDBConnection, limit: string): Promise<void> {
  await setSettings(connection, { memory_limit: limit });
}

/**
 * Opens (or creates) the warehouse file and brings the bookkeeping tables and the SQL helpers up to date.
 *
 * @example
 * const wh = await openWarehouse('./ledgerpipe.duckdb');
 * try { ... } finally { await wh.close(); }
 */
export async function openWarehouse(
  path: string,
  options: { readOnly?: boolean; memoryLimit?: string } = {},
): Promise<Warehouse> {
  const readOnly = options.readOnly === true;
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  const threads = threadsSetting();
  try {
    // A warehouse in a folder that does not exist yet: make the folder, as a user would expect.
    if (!readOnly) await mkdir(dirname(resolve(path)), { recursive: true });
    instance = await DuckDBInstance.create(path, { ...(readOnly ? { access_mode: 'READ_ONLY' } : {}), ...threads });
    connection = await instance.connect();
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const memoryLimit = memoryBudget(options.memoryLimit);
  try {
    await setUp(connection, { memoryLimit, readOnly });
  } catch (error) {
    // Nothing may keep the file locked after a failed open (a budget too small to set it up, say).
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return queuedWarehouse(path, instance, connection, memoryLimit);
}

/**
 * A fresh session: UTC, the memory budget, and (when it may write) the tables, macros and comments brought up to date.
 */
async function setUp(connection: DuckDBConnection, options: { memoryLimit: string; readOnly: boolean }): Promise<void> {
  try {
    await startSession(connection, { memoryLimit: options.memoryLimit });
  } catch (error) {
    throw new UsageError(
      `LEDGERPIPE_MEMORY_LIMIT=${options.memoryLimit} is not a memory size; use a size such as 512MB or 2GB`,
      error,
    );
  }
  if (options.readOnly) {
    // A warehouse an earlier release wrote lacks the typed tables of this release's new streams, which the macros
    // read: it is upgraded (opened for writing) before it is read (openWarehouseToRead), and needs no macros here.
    if ((await pendingMigrations(connection)).length > 0) return;
    await createMacros(connection, { opening: true, temporary: true });
    return;
  }
  const applied = await migrate(connection, Date.now());
  await bringOpeningUpToDate(connection, applied.length > 0);
}

/**
 * What every opening for writing makes sure of, once per release (the version `opening` records it): the macros
 * of this release (sql/macros/, the typed streams' sql/models/), a typed table with every column the registry of
 * tables gives (syncTypedTables), and the bookkeeping tables' comments. In one transaction: each statement alone
 * writes DuckDB's log, and opening took twice as long.
 */
async function bringOpeningUpToDate(connection: DuckDBConnection, migrated: boolean): Promise<void> {
  const { opening } = await releaseVersions();
  if (!migrated && (await readRecordedVersions(connection)).opening === opening) return;
  await inTransaction(connection, async (c) => {
    await syncTypedTables(c);
    await createMacros(c, { opening: true });
    await describeWarehouse(c);
    await recordVersions(c, { opening }, Date.now());
  });
}

/**
 * The warehouse over one connection, one piece of work at a time: concurrent streams queue here rather than
 * interleave statements inside each other's transactions.
 */
function queuedWarehouse(
  path: string,
  instance: DuckDBInstance,
  connection: DuckDBConnection,
  memoryLimit: string,
): Warehouse {
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> => {
    const run = queue.then(() => work(connection));
    queue = run.catch(() => undefined);
    return run;
  };
  const limitTo = (limit: string): Promise<void> => exclusive((c) => setMemoryLimit(c, limit));
  return {
    path,
    connection,
    exclusive,
    transaction: (work) => exclusive((c) => inTransaction(c, work)),
    withMemoryLimit: async (limit, work) => {
      await limitTo(limit);
      let result;
      try {
        result = await work();
      } catch (error) {
        // Best effort: a database DuckDB gave up on refuses the SET too, and that must not hide why.
        await limitTo(memoryLimit).catch(() => undefined);
        throw error;
      }
      await limitTo(memoryLimit);
      return result;
    },
    connect: async () => {
      const extra = await instance.connect();
      try {
        await startSession(extra);
      } catch (error) {
        extra.closeSync();
        throw error;
      }
      return extra;
    },
    close: async () => {
      await queue;
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Opens a warehouse that must already exist, to read it: read-only, so it never creates a file and works on a
 * read-only disk, with this release's macros as its session's own. A warehouse of an earlier release is upgraded
 * first, as every command does, which needs write access.
 *
 * @example
 * const warehouse = await openWarehouseToRead('./ledgerpipe.duckdb'); // `status`
 */
export async function openWarehouseToRead(path: string): Promise<Warehouse> {
  try {
    await access(path);
  } catch {
    throw new UsageError(`there is no warehouse at ${path}; check --db (run or extract creates one)`);
  }
  const warehouse = await openWarehouse(path, { readOnly: true });
  let pending: string[];
  try {
    pending = await warehouse.exclusive((c) => pendingMigrations(c));
  } catch (error) {
    await warehouse.close();
    throw error;
  }
  if (pending.length === 0) return warehouse;
  await warehouse.close();
  try {
    return await openWarehouse(path);
  } catch (error) {
    if (error instanceof WarehouseError && error.exit !== 'usage') throw error;
    throw new UsageError(
      `${path} was written by an earlier release and must be upgraded, which needs write access (${(error as Error).message}); run ledgerpipe status where the file can be written`,
      error,
    );
  }
}
