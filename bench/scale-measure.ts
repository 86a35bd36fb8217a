/**
 * One scale of the pipeline benchmark: the work bench/pipeline-scale.ts runs in a process of its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from '../src/extract/extractor.js';
import { exportFiles } from '../src/export/exporter.js';
import { createSignedClient } from '../src/http/client.js';
import { collectGarbage } from '../src/util/collect-garbage.js';
import { futuresFills } from '../src/streams/futures-fills.js';
import { runTransforms } from '../src/transform/runner.js';
import { extractionMemoryBudget } from '../src/duckdb/memory-budget.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface ScaleFigures {
  fills: number;
  extractSeconds: number;
  extractRecordsPerSecond: number;
  transformSeconds: number;
  exportSeconds: number;
  peakRssMb: number;
  /** Peak RSS so far at the end of each phase, MB: shows which phase set the peak. */
  peakRssMbAfter: { extract: number; transform: number; export: number };
}

/** Extracts `records` fills at --rate-scale 1000, transforms and exports them, and measures each phase. */
export async function measureScale(records: number): Promise<ScaleFigures> {
  const from = Date.UTC(2025, 0, 1);
  const to = Date.UTC(2026, 0, 1);
  const { child, info } = await spawnSimulator({ records, rateScale: 1000, startTimeoutMs: 300_000, seed: 'scale' });
  const dir = await mkdtemp(join(tmpdir(), 'lp-scale-'));
  try {
    // DuckDB's memory budget is the product's default, or LEDGERPIPE_MEMORY_LIMIT, as for a user's run.
    const warehouse = await openWarehouse(join(dir, 'scale.duckdb'));
    const client = createSignedClient({ baseUrl: info.baseUrl, credentials: info });
    try {
      let started = performance.now();
      // As runPipeline does: extraction within its own budget, and a collection before the transform.
      const result = await warehouse.withMemoryLimit(extractionMemoryBudget(), () =>
        extract({
          warehouse,
          client,
          account: 'bench',
          runId: 'bench',
          streams: [futuresFills],
          from,
          to,
          rateScale: 1000,
        }),
      );
      const extractSeconds = (performance.now() - started) / 1000;
      const peakAfter = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
      const phases = { extract: peakAfter(), transform: 0, export: 0 };
      await stopChild(child);
      collectGarbage();
      started = performance.now();
      await runTransforms(warehouse);
      const transformSeconds = (performance.now() - started) / 1000;
      phases.transform = peakAfter();
      started = performance.now();
      await exportFiles(warehouse, { out: join(dir, 'exports'), from, to, formats: ['csv', 'parquet'] });
      const exportSeconds = (performance.now() - started) / 1000;
      phases.export = peakAfter();
      const figures: ScaleFigures = {
        fills: result.total.records,
        extractSeconds,
        extractRecordsPerSecond: result.total.records / extractSeconds,
        transformSeconds,
        exportSeconds,
        // ru_maxrss is in kilobytes on Linux.
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        peakRssMbAfter: phases,
      };
      return figures;
    } finally {
      await client.close();
      await warehouse.close();
    }
  } finally {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  }
}
