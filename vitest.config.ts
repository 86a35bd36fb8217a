import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest, longest first, as a clean clone's run measured them (`bash .ci/run`,
 * test-results/vitest.json, 2026-11-26, three workers on 2 cores). Vitest orders files by the durations of its last
 * run, kept under node_modules: a clean clone has none, and it took the largest files first, which left some of the
 * longest to start in the last minute with little beside them. Files not listed follow in vitest's own order.
 */
const LONGEST_FIRST = [
  'test/cli/shards-lake.test.ts', // 51 s
  'test/cli/many-accounts.test.ts', // 49 s, most of it waiting on the IP budget
  'test/cli/ip-budget-machine.test.ts', // 20 s (2026-11-29, alone), waiting on the machine's IP budget
  'test/transform/incremental.test.ts', // 43 s
  'test/cli/completeness.test.ts', // 39 s
  'test/cli/pipelines.test.ts', // 36 s
  'test/extract/extract.test.ts', // 36 s
  'test/extract/kill.test.ts', // 32 s
  'test/reliability/hostile.test.ts', // 31 s
  'test/reliability/secrets.test.ts', // 26 s
  'test/transform/ledger-order.test.ts', // 26 s
  'test/pipeline/prices-beside.test.ts', // 24 s
  'test/transform/import-balance.test.ts', // 20 s
  'test/prices/valuation.test.ts', // 18 s
  'test/prices/ecb-fiat.test.ts', // 15-20 s (measured 2026-11-29 on a loaded machine; not from a clean clone's run)
  'test/cli/user-catalog.test.ts', // 14 s
  'test/cli/gaps.test.ts', // 12 s
  'test/transform/exports.test.ts', // 12 s
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((path) => f.moduleId.endsWith(path));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // A stable sort: the files of one rank (those not listed) keep the order vitest gave them.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn the CLI or a simulator share two cores, and much of their time is spent waiting (a
    // simulator's scaled rate limits, a child process): three files at a time keep the cores busy. The whole
    // suite on this 2-core machine (462 tests, 2026-11-26): 2 workers 480.5 s, 3 workers 395.6 s, 4 workers 445.6 s.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // Files share their worker's modules instead of loading them anew each (vitest reported 51 s of imports): the
    // suite is bound by the 2 cores' CPU, and no test changes shared state but through vi.stubEnv, undone by the
    // test or file that set it (transform/exports, duckdb/memory-budget). Same 471 tests, 2026-11-26: isolated
    // 434.7 s wall and 851 CPU-s, shared 400.0 s and 781 CPU-s.
    isolate: false,
    // DuckDB with one worker thread in every test and every CLI a test starts (README, "Memory"): two test files
    // at a time, each with a CLI and a simulator, already fill the 2 cores, and a thread per core on top spent 12%
    // more CPU for the same wall time. The tests of orders and bytes that threads could change unset it.
    env: {
      LEDGERPIPE_THREADS: '1',
      // No test reaches the ECB: a run that values a fiat through the euro without a fake of its own
      // (test/helpers/fake-ecb.ts) meets a closed port here (the discard port), not the internet.
      LEDGERPIPE_ECB_URL: 'http://127.0.0.1:9/service',
    },
    // The run's temporary files in one folder, removed after it (test/setup/scratch.ts).
    globalSetup: ['test/setup/scratch.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
