import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn the CLI or a simulator share two cores; keep them few at a time.
    maxWorkers: 2,
    // DuckDB with one worker thread in every test and every CLI a test starts (README, "Memory"): two test files
    // at a time, each with a CLI and a simulator, already fill the 2 cores, and a thread per core on top spent 12%
    // more CPU for the same wall time. The tests of orders and bytes that threads could change unset it.
    env: { LEDGERPIPE_THREADS: '1' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
