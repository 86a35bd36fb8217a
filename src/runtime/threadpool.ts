import { availableParallelism } from 'node:os';

/**
 * Sizes libuv's thread pool before its first use (it starts lazily, reading UV_THREADPOOL_SIZE once).
 * DuckDB's queries run on that pool, and every thread that runs one gets a malloc arena of its own that keeps
 * the memory it freed: four threads for at most one query at a time (one per core during export) held about
 * 50 MB more at the peak of a 1M-fill run than one per core. A size the user set is kept.
 */
export function sizeThreadPool(): void {
  process.env['UV_THREADPOOL_SIZE'] ??= String(Math.max(2, availableParallelism()));
}
