import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeFailure } from '../../src/cli/exit.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-budget-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function settings(options: { memoryLimit?: string } = {}): Promise<Record<string, unknown>> {
  const warehouse = await openWarehouse(join(dir, 'w.duckdb'), options);
  try {
    const reader = await warehouse.connection.runAndReadAll(
      "SELECT current_setting('memory_limit') AS memory_limit, current_setting('allocator_background_threads') AS background",
    );
    return reader.getRowObjectsJS()[0] as Record<string, unknown>;
  } finally {
    await warehouse.close();
  }
}

describe("DuckDB's memory budget", () => {
  it('is 256 MB unless LEDGERPIPE_MEMORY_LIMIT says otherwise, with freed memory returned on a timer', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    // DuckDB reports sizes in MiB: 256 MB is 244.1 MiB.
    expect(await settings()).toEqual({ memory_limit: '244.1 MiB', background: true });
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1GB');
    expect(await settings()).toEqual({ memory_limit: '953.6 MiB', background: true });
    expect(await settings({ memoryLimit: '512MB' })).toEqual({ memory_limit: '488.2 MiB', background: true });
  });

  it('running out of it says which setting to raise', () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    const failure = describeFailure(new Error('Out of Memory Error: failed to allocate data of size 32.0 KiB (244.1 MiB/244.1 MiB used)\n\nPossible solutions: ...'));
    expect(failure).toEqual({
      line: 'ledgerpipe: the warehouse needed more memory than its budget of 256MB; set LEDGERPIPE_MEMORY_LIMIT higher (for example 1GB) and run again (committed work is kept)',
      status: 1,
    });
  });
});
