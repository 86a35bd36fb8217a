import { access, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { WarehouseError } from '../errors/warehouse-error.js';
import { createMacros } from './macros.js';
import { migrate, pendingMigrations } from './migrations.js';
import { literal } from './quote.js';

/** An open DuckDB warehouse: one connection, UTC session, bookkeeping tables in place. */
export interface Warehouse {
  readonly path: string;
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
  if (/No space left/i.test(message)) return new WarehouseError(`cannot write ${path}: the disk is full; free space and run again`, 'LP_DISK_FULL', 'unexpected', error);
  return new WarehouseError(`cannot open warehouse ${path}: ${message.split('\n')[0]}; check --db`, 'LP_WAREHOUSE_OPEN', 'usage', error);
}

/**
 * DuckDB's memory budget unless LEDGERPIPE_MEMORY_LIMIT says otherwise. DuckDB fills whatever budget it has
 * with cached blocks (its default is 80% of the machine), so without one a process grows with the warehouse;
 * with one, sorts and joins beyond it spill to disk and memory stays flat from 100k records to millions.
 * 224 MB keeps a year of 1M fills within the speed target, and a year-end of 1M fills with every stream
 * exits 0 (bench/busy-year.ts: about 90 s, 530 MB peak RSS). `query` opens its own read-only
 * instance without a budget: ad-hoc analysis gets DuckDB's default.
 */
export const DEFAULT_MEMORY_LIMIT = '224MB';

/**
 * The budget extraction runs within unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage. Extraction
 * appends pages and looks their keys up; with the full budget DuckDB kept the blocks it had written cached,
 * and at 1M fills that made the extraction as large as the transform (170 MB of cache at its end). At 128 MB
 * it runs as fast (2M fills: 23k records/s).
 */
export const DEFAULT_EXTRACTION_MEMORY_LIMIT = '128MB';

/** The user's budget for every stage, when LEDGERPIPE_MEMORY_LIMIT sets one. */
const userBudget = (): string | undefined => process.env['LEDGERPIPE_MEMORY_LIMIT'];

/** The budget a warehouse opens with: the caller's, else LEDGERPIPE_MEMORY_LIMIT, else the default. */
export function memoryBudget(option?: string): string {
  return option ?? userBudget() ?? DEFAULT_MEMORY_LIMIT;
}

/** The budget extraction runs within: LEDGERPIPE_MEMORY_LIMIT when set, else the extraction default. */
export function extractionMemoryBudget(): string {
  return userBudget() ?? DEFAULT_EXTRACTION_MEMORY_LIMIT;
}

/** The budgets in words, for messages: one when LEDGERPIPE_MEMORY_LIMIT is set, else both defaults. */
export function describeMemoryBudget(): string {
  return userBudget() ?? `${DEFAULT_MEMORY_LIMIT}, ${DEFAULT_EXTRACTION_MEMORY_LIMIT} while extracting`;
}

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/**
 * The budget to try after running out of `budget`: twice it, in MB or GB, e.g. 224MB -> 448MB, 512MB -> 1024MB,
 * 1.5GB -> 3GB, 1GiB -> 2148MB. Undefined for a size written in a form this does not read (DuckDB reads more).
 */
export function doubledMemoryBudget(budget: string): string | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/i.exec(budget);
  if (!match) return undefined;
  const megabytes = Math.ceil((Number(match[1]) * (SIZE_UNITS[(match[2] as string).toLowerCase()] as number) * 2) / 1e6);
  return megabytes >= 1000 && megabytes % 100 === 0 ? `${megabytes / 1000}GB` : `${megabytes}MB`;
}

/**
 * What to do after running out of memory, for messages: the LEDGERPIPE_MEMORY_LIMIT to run with, twice the
 * budget of the stage that ran out (the transform's, the larger, when the defaults are in force).
 */
export function memoryAdvice(): string {
  const budget = userBudget() ?? DEFAULT_MEMORY_LIMIT;
  const doubled = doubledMemoryBudget(budget);
  return doubled === undefined
    ? `run again with LEDGERPIPE_MEMORY_LIMIT set to a size larger than ${budget}, such as 1GB`
    : `run again with LEDGERPIPE_MEMORY_LIMIT=${doubled} (twice the budget)`;
}

/** Holds DuckDB (the whole instance) to `limit`. */
async function setMemoryLimit(connection: DuckDBConnection, limit: string): Promise<void> {
  await connection.run(`SET memory_limit = ${literal(limit)}`);
}

/** Whether DuckDB failed for want of memory within its budget. */
export function isOutOfMemory(error: unknown): boolean {
  return /Out of Memory Error/i.test(error instanceof Error ? error.message : String(error));
}

/** Times are stored as instants; a UTC session makes every cast and every text form UTC. */
export async function startUtcSession(connection: DuckDBConnection): Promise<void> {
  await connection.run("SET TimeZone = 'UTC'");
}

/**
 * Opens (or creates) the warehouse file and brings the bookkeeping tables and the SQL helpers up to date.
 *
 * @example
 * const wh = await openWarehouse('./ledgerpipe.duckdb');
 * try { ... } finally { await wh.close(); }
 */
export async function openWarehouse(path: string, options: { readOnly?: boolean; memoryLimit?: string } = {}): Promise<Warehouse> {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  try {
    // A warehouse in a folder that does not exist yet: make the folder, as a user would expect.
    if (options.readOnly !== true) await mkdir(dirname(resolve(path)), { recursive: true });
    instance = await DuckDBInstance.create(path, options.readOnly === true ? { access_mode: 'READ_ONLY' } : {});
    connection = await instance.connect();
  } catch (error) {
    throw describeOpenError(path, error);
  }
  const memoryLimit = memoryBudget(options.memoryLimit);
  try {
    await startUtcSession(connection);
    try {
      await setMemoryLimit(connection, memoryLimit);
    } catch (error) {
      throw new UsageError(`LEDGERPIPE_MEMORY_LIMIT=${memoryLimit} is not a memory size; use a size such as 512MB or 2GB`, error);
    }
    // jemalloc returns freed pages to the system on a timer, not only when DuckDB next allocates.
    await connection.run('SET allocator_background_threads = true');
    if (options.readOnly !== true) await migrate(connection, Date.now());
    await createMacros(connection, { temporary: options.readOnly === true });
  } catch (error) {
    // Nothing may keep the file locked after a failed open (a budget too small to set it up, say).
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  // One connection, one piece of work at a time: concurrent streams queue here rather than interleave
  // statements inside each other's transactions.
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
    transaction: (work) =>
      exclusive(async (c) => {
        await c.run('BEGIN TRANSACTION');
        try {
          const result = await work(c);
          await c.run('COMMIT');
          return result;
        } catch (error) {
          await c.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
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
        await startUtcSession(extra);
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
 * read-only disk. A warehouse of an earlier release is upgraded first, as every command does, which needs
 * write access.
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
    pending = await pendingMigrations(warehouse.connection);
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
    throw new UsageError(`${path} was written by an earlier release and must be upgraded, which needs write access (${(error as Error).message}); run ledgerpipe status where the file can be written`, error);
  }
}
