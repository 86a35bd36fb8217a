/** The variable DuckDB's built-in jemalloc (built with the prefix `duckdb_je_`) reads its options from. */
export const DUCKDB_ALLOCATOR_VARIABLE = 'DUCKDB_JE_MALLOC_CONF';

/**
 * One jemalloc arena for every thread. DuckDB's build asks for one arena per core, and each arena keeps the
 * pages its threads freed for reuse by those threads only. A run's queries move between DuckDB's workers and
 * Node's thread pool, so each arena ended up holding its own copy of the transform's working set: at 1M fills
 * the transform's peak varied from 436 to 626 MB run to run. With one arena every thread reuses the same
 * freed pages: 436 to 463 MB, at the same speed (bench/pipeline-scale.ts).
 */
export const DUCKDB_ALLOCATOR_OPTIONS = 'narenas:1';

/**
 * Gives DuckDB's allocator ledgerpipe's options, unless the variable is already set (a user's own setting
 * wins). jemalloc reads them once, when DuckDB's library loads: call this before anything imports
 * `@duckdb/node-api`, which is why entry points call it and then import the rest.
 *
 * @example
 * configureDuckDBAllocator();
 * const { runCli } = await import('./run.js');
 */
export function configureDuckDBAllocator(env: NodeJS.ProcessEnv = process.env): void {
  if (env[DUCKDB_ALLOCATOR_VARIABLE] === undefined) env[DUCKDB_ALLOCATOR_VARIABLE] = DUCKDB_ALLOCATOR_OPTIONS;
}
