// Preloaded with `node --require`: reports, when DuckDB's native library loads, the allocator options it
// loads with. Used by test/duckdb/duckdb-allocator.test.ts to check the CLI sets them first.
const dlopen = process.dlopen;
process.dlopen = function probe(module, filename, ...rest) {
  if (/duckdb/i.test(filename)) process.stderr.write(`probe: DuckDB loads with DUCKDB_JE_MALLOC_CONF=${process.env.DUCKDB_JE_MALLOC_CONF}\n`);
  return dlopen.call(this, module, filename, ...rest);
};
