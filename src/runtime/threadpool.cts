// CommonJS on purpose: the launcher requires it synchronously, before anything starts libuv's thread pool.
import os = require('node:os');

/**
 * The size for libuv's thread pool, unless the user set UV_THREADPOOL_SIZE: one thread per core, at least 2.
 * DuckDB's queries run on that pool, and every thread that runs one keeps a malloc arena of its own with the
 * memory it freed; ledgerpipe runs one query at a time (one per core during export), so Node's default of
 * four threads only adds arenas.
 */
function threadPoolSize(): string {
  return process.env['UV_THREADPOOL_SIZE'] ?? String(Math.max(2, os.availableParallelism()));
}

export = { threadPoolSize };
