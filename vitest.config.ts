import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn the CLI or a simulator share two cores, and much of their time is spent waiting (a
    // simulator's scaled rate limits, a child process): three files at a time keep the cores busy. The whole
    // suite on this 2-core machine (462 tests, 2026-11-26): 2 workers 480.5 s, 3 workers 395.6 s, 4 workers 445.6 s.
    maxWorkers: 3,
    // Files share their worker's modules instead of loading them anew each (vitest reported 51 s of imports): the
    // suite is bound by the 2 cores' CPU, and no test changes shared state but through vi.stubEnv, undone by the
    // test or file that set it (transform/exports, warehouse/memory-budget). Same 471 tests, 2026-11-26: isolated
    // 434.7 s wall and 851 CPU-s, shared 400.0 s and 781 CPU-s.
    isolate: false,
    // DuckDB with one worker thread in every test and every CLI a test starts (README, "Memory"): two test files
    // at a time, each with a CLI and a simulator, already fill the 2 cores, and a thread per core on top spent 12%
    // more CPU for the same wall time. The tests of orders and bytes that threads could change unset it.
    env: { LEDGERPIPE_THREADS: '1' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
