/** The variable DuckDB's built-in jemalloc (built with the prefix `duckdb_je_`) reads its options from. */
export const DUCKDB_ALLOCATOR_VARIABLE = 'DUCKDB_JE_MALLOC_CONF';

/**
 * One jemalloc arena for every thread. DuckDB's build sets several (`narenas:2` on our 2-core machine, as
 * jemalloc's `stats_print` shows); threads are bound to arenas, and pages freed into one arena are reused
 * only by the threads bound to it. A run's queries move between DuckDB's workers and Node's thread pool, so each
 * arena kept its own copy of the transform's working set, and the peak varied widely from run to run; with
 * one it is steady, at the same speed (docs/performance.md, "Memory").
 */
export const DUCKDB_ALLOCATOR_OPTIONS = 'narenas:1';

/**
 * Gives DuckDB's allocator ledgerpipe's options, ahead of any the user set in the variable (jemalloc reads
 * them left to right, so the user's own win). jemalloc reads them once, when DuckDB's library loads: call
 * this before anything imports `@duckdb/node-api`, which is why entry points call it and then import the rest.
 *
 * @example
 * configureDuckDBAllocator();
 * const { runCli } = await import('../warehouse/run.js');
 */
export function configureDuckDBAllocator(env: NodeJS.ProcessEnv = process.env): void {
  const own = env[DUCKDB_ALLOCATOR_VARIABLE];
  if (own !== undefined && new RegExp(`^${DUCKDB_ALLOCATOR_OPTIONS}(,|$)`).test(own)) return;
  env[DUCKDB_ALLOCATOR_VARIABLE] =
    own === undefined || own === '' ? DUCKDB_ALLOCATOR_OPTIONS : `${DUCKDB_ALLOCATOR_OPTIONS},${own}`;
}
