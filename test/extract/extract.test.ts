import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extract, type ExtractOptions } from '../../src/extract/extractor.js';
import { createSignedClient } from '../../src/http/client.js';
import { PAGED_STREAMS } from '../../src/sim/data/model.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { STREAMS } from '../../src/streams/index.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { startRun } from '../../src/warehouse/runs.js';
import { loaded, truthInRange } from '../helpers/truth.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 6, 1);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-extract-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function withSim<T>(options: Partial<SimulatorOptions>, work: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ seed: 'extract', from: FROM, to: TO, records: 1200, rateScale: 1000, pendingMs: 0, ...options });
  try {
    return await work(sim);
  } finally {
    await sim.close();
  }
}

async function run(sim: Simulator, warehouse: Warehouse, extra: Partial<ExtractOptions> = {}) {
  const client = createSignedClient({ baseUrl: sim.baseUrl, credentials: sim.credentials, timeouts: { totalMs: 400 } });
  try {
    const runId = await startRun(warehouse.connection, { account: 'default', command: 'extract', from: FROM, to: TO, now: Date.now() });
    return await extract({
      warehouse,
      client,
      account: 'default',
      runId,
      streams: STREAMS,
      from: FROM,
      to: TO,
      rateScale: 1000,
      retry: { baseMs: 2, capMs: 20, rateLimitWaitMs: 5 },
      ...extra,
    });
  } finally {
    await client.close();
  }
}

async function expectExactlyTruth(sim: Simulator, warehouse: Warehouse): Promise<void> {
  for (const stream of PAGED_STREAMS) {
    const got = await loaded(warehouse.connection, stream);
    const want = truthInRange(sim.dataset, stream, FROM, TO);
    expect(got.size, stream).toBe(want.size);
    expect(got, stream).toEqual(want);
  }
}

const pagedRequests = (sim: Simulator) =>
  ['/api/v2/tax/margin-record', '/api/v2/mix/order/fill-history', '/api/v2/spot/wallet/withdrawal-records', '/api/v2/p2p/advList'].reduce(
    (n, p) => n + (sim.stats.byPath[p] ?? 0),
    0,
  );

describe('extract', () => {
  it('loads every record of the range exactly once, and a rerun requests no covered window', async () => {
    await withSim({}, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const first = await run(sim, warehouse);
        await expectExactlyTruth(sim, warehouse);
        expect(first.total.quarantined).toBe(0);
        expect(first.streams['futures_fills']?.tiePages).toBeGreaterThan(0);
        const before = pagedRequests(sim);
        const second = await run(sim, warehouse);
        expect(pagedRequests(sim)).toBe(before);
        expect(second.streams['futures_fills']?.windowsSkipped).toBe(first.streams['futures_fills']?.windowsPlanned);
        await expectExactlyTruth(sim, warehouse);
        const balances = await warehouse.connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM raw_records WHERE stream = 'account_balances'");
        expect(balances.getRowObjectsJS()[0]?.['n']).toBe(12);
      } finally {
        warehouse.close();
      }
    });
  });

  it('stays exact with 10% of requests failing', async () => {
    await withSim({ faults: 0.1, stallMs: 1500, seed: 'faulty', records: 3000 }, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const result = await run(sim, warehouse);
        await expectExactlyTruth(sim, warehouse);
        // Every injected fault on a record endpoint cost exactly one retry, and every kind was injected.
        const { '/api/v2/public/time': _sync, ...recordFaults } = sim.stats.faultsByPath;
        expect(result.total.retries).toBe(Object.values(recordFaults).reduce((a, b) => a + b, 0));
        expect(Object.values(sim.stats.faults).every((n) => n > 0)).toBe(true);
      } finally {
        warehouse.close();
      }
    });
  });

  it('narrows margin windows when the server allows 30 days, remembers it, and stays exact', async () => {
    await withSim({ marginWindowDays: 30 }, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        await run(sim, warehouse);
        await expectExactlyTruth(sim, warehouse);
        const learned = await warehouse.connection.runAndReadAll('SELECT stream, window_ms FROM learned_windows');
        expect(learned.getRowObjectsJS()).toEqual([{ stream: 'margin_records', window_ms: 30n * 86_400_000n }]);
        const refused = sim.stats.byStatus[400] ?? 0;
        expect(refused).toBeGreaterThan(0);
        // A later run over new ground plans 30-day windows at once: no more refusals.
        await warehouse.connection.run("DELETE FROM coverage WHERE stream = 'margin_records'");
        await run(sim, warehouse);
        expect(sim.stats.byStatus[400] ?? 0).toBe(refused);
      } finally {
        warehouse.close();
      }
    });
  });
});

describe('extract at the real rate limits', () => {
  it('never exceeds a one-second limit: zero 429s from a simulator enforcing the real rates', async () => {
    const to = Date.UTC(2025, 0, 22);
    const sim = await startSimulator({ seed: 'real-rates', from: FROM, to, records: 400, pendingMs: 0 });
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    const client = createSignedClient({ baseUrl: sim.baseUrl, credentials: sim.credentials });
    try {
      const result = await extract({ warehouse, client, account: 'default', runId: 'real', streams: STREAMS, from: FROM, to });
      expect(sim.stats.byStatus[429]).toBeUndefined();
      expect(result.total.rateLimited).toBe(0);
      // Each endpoint was driven at its limit: margin-record (1/s) needed several requests.
      expect(sim.stats.byPath['/api/v2/tax/margin-record']).toBeGreaterThanOrEqual(3);
      for (const stream of PAGED_STREAMS) expect(await loaded(warehouse.connection, stream)).toEqual(truthInRange(sim.dataset, stream, FROM, to));
    } finally {
      await client.close();
      warehouse.close();
      await sim.close();
    }
  }, 30_000);
});
