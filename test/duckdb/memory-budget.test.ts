import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeFailure } from '../../src/cli/exit.js';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import {
  doubledMemoryBudget,
  extractionMemoryBudget,
  summaryMemoryBudget,
  wholeLedgerMemoryBudget,
} from '../../src/duckdb/memory-budget.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';

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

/** `warehouse`, with every budget its work asks withMemoryLimit for noted in `asked`. */
function watchedBudgets(warehouse: Warehouse): { watched: Warehouse; asked: string[] } {
  const asked: string[] = [];
  const watched: Warehouse = {
    ...warehouse,
    withMemoryLimit: (limit, work) => {
      asked.push(limit);
      return warehouse.withMemoryLimit(limit, work);
    },
  };
  return { watched, asked };
}

/** The session's memory_limit as DuckDB reports it (in MiB). */
async function currentLimit(warehouse: Warehouse): Promise<unknown> {
  return (
    await warehouse.connection.runAndReadAll("SELECT current_setting('memory_limit') AS m")
  ).getRowObjectsJS()[0]?.['m'];
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

  it('is 320 MB while a transform makes the whole ledger, unless LEDGERPIPE_MEMORY_LIMIT sets one; an incremental transform keeps the warehouse budget', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(wholeLedgerMemoryBudget()).toBe('320MB');
    const warehouse = await openWarehouse(join(dir, 'whole.duckdb'));
    const { watched, asked } = watchedBudgets(warehouse);
    try {
      // The first transform of a warehouse by this release makes the ledger whole; the next has nothing new.
      expect((await runTransforms(watched)).mode.full).toBe(true);
      expect((await runTransforms(watched)).mode.full).toBe(false);
      expect(asked).toEqual(['320MB']);
      expect(await currentLimit(warehouse)).toBe('213.6 MiB');
    } finally {
      await warehouse.close();
    }
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1GB');
    expect(wholeLedgerMemoryBudget()).toBe('1GB');
  });

  it('is 320 MB too while an export writes tax files, whose rows group every trade of the range; other files keep the warehouse budget', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    const warehouse = await openWarehouse(join(dir, 'export.duckdb'));
    const { watched, asked } = watchedBudgets(warehouse);
    try {
      await runTransforms(warehouse);
      const range = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) };
      await exportFiles(watched, { out: join(dir, 'csv'), formats: ['csv'], ...range });
      expect(asked).toEqual([]);
      // The range's valued rows, which the tax files' values read, are made at that budget, then the files.
      await exportFiles(watched, { out: join(dir, 'tax'), formats: ['koinly', 'cointracking'], ...range });
      expect(asked).toEqual(['320MB', '320MB']);
      await exportFiles(watched, { out: join(dir, 'both'), formats: ['csv', 'koinly'], ...range });
      expect(asked).toEqual(['320MB', '320MB', '320MB', '320MB']);
      expect(await currentLimit(warehouse)).toBe('213.6 MiB');
    } finally {
      await warehouse.close();
    }
  });

  it('is 128 MB while extracting unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage, and comes back after', async () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(extractionMemoryBudget()).toBe('128MB');
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    const limit = async (): Promise<unknown> =>
      (await warehouse.connection.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]?.[
        'm'
      ];
    try {
      expect(await warehouse.withMemoryLimit(extractionMemoryBudget(), limit)).toBe('122.0 MiB');
      expect(await limit()).toBe('213.6 MiB');
      // Restored when the work fails too.
      await expect(warehouse.withMemoryLimit('64MB', () => Promise.reject(new Error('page refused')))).rejects.toThrow(
        'page refused',
      );
      expect(await limit()).toBe('213.6 MiB');
    } finally {
      await warehouse.close();
    }
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1GB');
    expect(extractionMemoryBudget()).toBe('1GB');
  });

  it('is 64 MB for the summary after a transform unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage', () => {
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(summaryMemoryBudget()).toBe('64MB');
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '512MB');
    expect(summaryMemoryBudget()).toBe('512MB');
  });

  it('running out of it says which setting to raise', () => {
    const outOfMemory = new Error(
      'Out of Memory Error: failed to allocate data of size 32.0 KiB (213.6 MiB/213.6 MiB used)\n\nPossible solutions: ...',
    );
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', undefined);
    expect(describeFailure(outOfMemory)).toEqual({
      line: 'ledgerpipe: the warehouse needed more memory than its budget (224MB, 128MB while extracting); run again with LEDGERPIPE_MEMORY_LIMIT=448MB (twice the budget); committed work is kept',
      status: 1,
    });
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '512MB');
    expect(describeFailure(outOfMemory).line).toBe(
      'ledgerpipe: the warehouse needed more memory than its budget (512MB); run again with LEDGERPIPE_MEMORY_LIMIT=1024MB (twice the budget); committed work is kept',
    );
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '1.5 GB');
    expect(describeFailure(outOfMemory, { format: 'json', clock: () => Date.UTC(2026, 0, 2) }).line).toBe(
      '{"time":"2026-01-02T00:00:00.000Z","level":"error","msg":"the warehouse needed more memory than its budget (1.5 GB); run again with LEDGERPIPE_MEMORY_LIMIT=3GB (twice the budget); committed work is kept","code":"LP_OUT_OF_MEMORY","exit":1}',
    );
  });

  it('doubles a budget into a size DuckDB takes, or says to go larger when it cannot read the size', async () => {
    expect(['224MB', '512MB', '1GB', '1.5GB', '1.2gb', '1GiB', '100000KB', '8TB'].map(doubledMemoryBudget)).toEqual([
      '448MB',
      '1024MB',
      '2GB',
      '3GB',
      '2.4GB',
      '2148MB',
      '200MB',
      '16000GB',
    ]);
    expect(doubledMemoryBudget('80%')).toBeUndefined();
    // Each doubled size opens a warehouse with the budget it names.
    expect(await settings({ memoryLimit: '2.4GB' })).toEqual({ memory_limit: '2.2 GiB', background: true });
    vi.stubEnv('LEDGERPIPE_MEMORY_LIMIT', '80%');
    expect(describeFailure(new Error('Out of Memory Error: failed to allocate')).line).toBe(
      'ledgerpipe: the warehouse needed more memory than its budget (80%); run again with LEDGERPIPE_MEMORY_LIMIT set to a size larger than 80%, such as 1GB; committed work is kept',
    );
  });
});
