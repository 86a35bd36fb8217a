import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeFailure } from '../../src/cli/exit.js';
import { extractionMemoryBudget, openWarehouse } from '../../src/warehouse/warehouse.js';

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
  it('is 224 MB unless LEDGERPIPE_MEMORY_LIMIT says otherwise, with freed memory returned on a timer', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    // DuckDB reports sizes in MiB: 224 MB is 213.6 MiB.
    expect(await settings()).toEqual({ memory_limit: '213.6 MiB', background: true });
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1GB');
    expect(await settings()).toEqual({ memory_limit: '953.6 MiB', background: true });
    expect(await settings({ memoryLimit: '512MB' })).toEqual({ memory_limit: '488.2 MiB', background: true });
  });

  it('is 128 MB while extracting unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage, and comes back after', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(extractionMemoryBudget()).toBe('128MB');
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    const limit = async (): Promise<unknown> =>
      (await warehouse.connection.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]?.['m'];
    try {
      expect(await warehouse.withMemoryLimit(extractionMemoryBudget(), limit)).toBe('122.0 MiB');
      expect(await limit()).toBe('213.6 MiB');
      // Restored when the work fails too.
      await expect(warehouse.withMemoryLimit('64MB', () => Promise.reject(new Error('page refused')))).rejects.toThrow('page refused');
      expect(await limit()).toBe('213.6 MiB');
    } finally {
      await warehouse.close();
    }
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1GB');
    expect(extractionMemoryBudget()).toBe('1GB');
  });

  it('running out of it says which setting to raise', () => {
    const outOfMemory = new Error('Out of Memory Error: failed to allocate data of size 32.0 KiB (213.6 MiB/213.6 MiB used)\n\nPossible solutions: ...');
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(describeFailure(outOfMemory)).toEqual({
      line: 'ledgerpipe: the warehouse needed more memory than its budget (224MB, 128MB while extracting); set LEDGERPIPE_MEMORY_LIMIT higher (for example 1GB) and run again (committed work is kept)',
      status: 1,
    });
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '512MB');
    expect(describeFailure(outOfMemory).line).toBe(
      'ledgerpipe: the warehouse needed more memory than its budget (512MB); set LEDGERPIPE_MEMORY_LIMIT higher (for example 1GB) and run again (committed work is kept)',
    );
  });
});
