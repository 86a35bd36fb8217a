import type { DuckDBConnection } from '@duckdb/node-api';
import { literal } from './quote.js';

/**
 * The DuckDB settings ledgerpipe changes, each with why, in one place (ARCHITECTURE.md, "Invariants, and where each
 * is enforced"). A setting changed for a piece of work is put back after it, whether the work succeeds or fails.
 */
export interface SessionSettings {
  /**
   * The instance's memory budget (docs/memory.md): the warehouse's, or a stage's own (extraction, summaries).
   */
  memory_limit?: string;
  /**
   * false while the transform writes: the tables keep no order but the ledger's, which its ORDER BY makes, and
   * DuckDB writes them faster and in less memory when it need not keep the order rows were made in (retyping 983k
   * fills: 4.0 s against 7.0 s; docs/performance.md, "Memory"). true for the exports' COPYs, which read a ledger in
   * order as it lies, and for the gains' movements, whose rowids then follow their order (sql/gains/20_event_rows.sql).
   */
  preserve_insertion_order?: boolean;
  /** lp_delta first while an incremental transform runs the ledger's files over the changed records' copies. */
  search_path?: string;
  /** ledgerpipe's folder while the transform runs the seeds, whose CSV paths are relative to it. */
  file_search_path?: string;
  /**
   * '1TB' while extracting: the writers checkpoint between batches instead of DuckDB inside a large batch's
   * COMMIT, which stopped about 1 in 10 extractions of 40-100 accounts (docs/many-accounts.md).
   */
  checkpoint_threshold?: string;
}

/** Sets each setting given. */
export async function setSettings(c: DuckDBConnection, settings: SessionSettings): Promise<void> {
  for (const [name, value] of Object.entries(settings)) {
    await c.run(`SET ${name} = ${typeof value === 'boolean' ? String(value) : literal(String(value))}`);
  }
}

/** Puts each named setting back to DuckDB's default. */
export async function resetSettings(c: DuckDBConnection, names: readonly (keyof SessionSettings)[]): Promise<void> {
  for (const name of names) await c.run(`RESET ${name}`);
}

/**
 * Runs `work` with `settings` on `c`, then puts them back to DuckDB's defaults, best effort: a transaction a
 * statement failed in, or a database DuckDB gave up on, refuses it too, and that must not hide why the work failed.
 */
export async function withSettings<T>(
  c: DuckDBConnection,
  settings: SessionSettings,
  work: () => Promise<T>,
): Promise<T> {
  return withSettingsOn((run) => run(c), settings, work);
}

/**
 * withSettings through a queue of work on the connection (Warehouse.exclusive): the settings are set and put back
 * as work of their own, around `work`, which uses the queue itself.
 */
export async function withSettingsOn<T>(
  exclusive: (run: (c: DuckDBConnection) => Promise<void>) => Promise<void>,
  settings: SessionSettings,
  work: () => Promise<T>,
): Promise<T> {
  await exclusive((c) => setSettings(c, settings));
  try {
    return await work();
  } finally {
    await exclusive((c) => resetSettings(c, Object.keys(settings) as (keyof SessionSettings)[])).catch(() => undefined);
  }
}

/**
 * A fresh session: times are stored as instants, and a UTC session makes every cast and every text form UTC.
 * With `memoryLimit`, the instance's budget, and jemalloc returning freed pages to the system on a timer, not
 * only when DuckDB next allocates.
 */
export async function startSession(
  connection: DuckDBConnection,
  options: { memoryLimit?: string } = {},
): Promise<void> {
  await connection.run("SET TimeZone = 'UTC'");
  if (options.memoryLimit === undefined) return;
  await setSettings(connection, { memory_limit: options.memoryLimit });
  await connection.run('SET allocator_background_threads = true');
}

/**
 * Locks the session's configuration, so that a statement cannot SET its way back out of what query allows
 * (src/reads/query.ts). With `onlyDirectory`, DuckDB may read that folder and nothing else first (a lake).
 */
export async function lockSession(
  connection: DuckDBConnection,
  options: { onlyDirectory?: string } = {},
): Promise<void> {
  if (options.onlyDirectory !== undefined) {
    await connection.run(`SET allowed_directories = [${literal(`${options.onlyDirectory}/`)}]`);
    await connection.run('SET enable_external_access = false');
  }
  await connection.run('SET lock_configuration = true');
}
