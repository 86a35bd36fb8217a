/**
 * One scale of the pipeline benchmark, in a process of its own so that its peak RSS is its own: extracts N
 * futures fills from a simulator (its own process) at --rate-scale 1000, then transforms and exports them,
 * and prints one JSON line of figures. Run by bench/run.ts: `node dist/bench/pipeline-scale.js 1000000`.
 */
import { configureDuckDBAllocator } from '../src/duckdb/duckdb-allocator.js';

// As the CLI does, before DuckDB's library loads with the measuring code.
configureDuckDBAllocator();
const { measureScale } = await import('./scale-measure.js');

measureScale(Number(process.argv[2] ?? '100000')).then(
  (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
  (error: unknown) => {
    process.stderr.write(
      `pipeline-scale: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
