import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract, type ExtractResult } from '../src/extract/extractor.js';
import { planWindows } from '../src/time/window.js';
import { createSignedClient } from '../src/http/client.js';
import { generateDataset } from '../src/sim/data/dataset.js';
import type { Dataset, PagedStream } from '../src/sim/data/types.js';
import { STREAMS } from '../src/streams/index.js';
import type { StreamDef } from '../src/streams/stream.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { spawnSimulator, stopChild } from './sim-process.js';

const DAY_MS = 86_400_000;

export interface BoundOptions {
  from: string;
  to: string;
  records: number;
  seed: string;
}

export interface StreamBound {
  /** Fewest requests any extractor needs: per window of maximal width, ceil(records / page max), at least one. */
  fewestRequests: number;
  /** fewestRequests / the endpoint's rate, in seconds. */
  boundSeconds: number;
}

/**
 * The rate-limit bound of an extraction (the extraction issue's definition): per endpoint, the fewest requests
 * possible at maximal windows and pages divided by its rate; streams run in parallel, so the slowest sets it. With
 * `historyFrom`, the streams that carry lots are read from there (docs/history.md), as a run that extracts reads
 * them: their windows start there.
 */
export function rateLimitBound(
  dataset: Dataset,
  streams: readonly StreamDef[],
  from: number,
  to: number,
  historyFrom?: number,
): Record<string, StreamBound> {
  const out: Record<string, StreamBound> = {};
  for (const stream of streams) {
    let requests = 0;
    if (stream.kind === 'snapshot') {
      // Each part once; parts of one path share its limiter.
      const byPath = new Map<string, { n: number; rate: number }>();
      for (const p of stream.parts) byPath.set(p.path, { n: (byPath.get(p.path)?.n ?? 0) + 1, rate: p.ratePerSecond });
      out[stream.name] = {
        fewestRequests: stream.parts.length,
        boundSeconds: Math.max(...[...byPath.values()].map((p) => p.n / p.rate)),
      };
      continue;
    } else {
      const partitions = dataset.streams[stream.name as PagedStream];
      for (const partition of stream.partitions) {
        const records = partitions.find((p) => p.name === partition.name)?.records ?? [];
        const start = stream.carriesLots === true && historyFrom !== undefined ? Math.min(from, historyFrom) : from;
        for (const w of planWindows(start, to, stream.maxWindowDays * DAY_MS)) {
          const n = records.filter((r) => r.ts >= w.start && r.ts < w.end).length;
          requests += Math.max(1, Math.ceil(n / stream.pageLimit));
        }
      }
    }
    out[stream.name] = { fewestRequests: requests, boundSeconds: requests / stream.ratePerSecond };
  }
  return out;
}

export interface ExtractionMeasurement {
  wallSeconds: number;
  boundSeconds: number;
  ratio: number;
  requests: number;
  fewestRequests: number;
  rateLimited: number;
  records: number;
  perStream: Record<string, StreamBound & { requests: number }>;
}

/**
 * Runs a real extraction against a simulator enforcing the real rates (its own process) and sets its wall time
 * beside the rate-limit bound. `extractWith` lets a baseline run the same data its own way.
 */
export async function measureExtraction(
  options: BoundOptions & { extractWith?: typeof extract },
): Promise<ExtractionMeasurement> {
  const from = Date.parse(`${options.from}T00:00:00Z`);
  const to = Date.parse(`${options.to}T00:00:00Z`);
  const dataset = generateDataset({ seed: options.seed, from, to, records: options.records, marginWindowDays: 366 });
  const bounds = rateLimitBound(dataset, STREAMS, from, to);
  const { child, info } = await spawnSimulator({
    records: options.records,
    rateScale: 1,
    startTimeoutMs: 60_000,
    seed: options.seed,
    from: options.from,
    to: options.to,
  });
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-'));
  const warehouse = await openWarehouse(join(dir, 'bench.duckdb'));
  const client = createSignedClient({ baseUrl: info.baseUrl, credentials: info });
  try {
    const started = performance.now();
    const result: ExtractResult = await (options.extractWith ?? extract)({
      warehouse,
      client,
      account: 'bench',
      runId: 'bench',
      streams: STREAMS,
      from,
      to,
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const boundSeconds = Math.max(...Object.values(bounds).map((b) => b.boundSeconds));
    const perStream = Object.fromEntries(
      Object.entries(bounds).map(([name, b]) => [name, { ...b, requests: result.streams[name]?.requests ?? 0 }]),
    );
    return {
      wallSeconds,
      boundSeconds,
      ratio: wallSeconds / boundSeconds,
      requests: result.total.requests,
      fewestRequests: Object.values(bounds).reduce((n, b) => n + b.fewestRequests, 0),
      rateLimited: result.total.rateLimited,
      records: result.total.records,
      perStream,
    };
  } finally {
    await client.close();
    await warehouse.close();
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  }
}
