import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extract, type ExtractOptions } from '../../src/extract/extractor.js';
import { createSignedClient } from '../../src/http/client.js';
import { DAY_MS, PAGED_STREAMS, type PagedStream } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { STREAMS } from '../../src/streams/index.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { startRun } from '../../src/reads/runs.js';
import { statusLines } from '../../src/cli/status.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { loaded, truthInRange } from '../helpers/truth.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 6, 1);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-extract-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function withSim<T>(options: Partial<SimulatorOptions>, work: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({
    seed: 'extract',
    from: FROM,
    to: TO,
    records: 1200,
    rateScale: 1000,
    pendingMs: 0,
    ...options,
  });
  try {
    return await work(sim);
  } finally {
    await sim.close();
  }
}

async function run(sim: Simulator, warehouse: Warehouse, extra: Partial<ExtractOptions> = {}) {
  const client = createSignedClient({ baseUrl: sim.baseUrl, credentials: sim.credentials, timeouts: { totalMs: 400 } });
  try {
    const runId = await startRun(warehouse.connection, {
      account: 'default',
      command: 'extract',
      from: FROM,
      to: TO,
      now: Date.now(),
      stage: 'extract',
    });
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

async function expectExactlyTruth(
  sim: Simulator,
  warehouse: Warehouse,
  streams: readonly PagedStream[] = PAGED_STREAMS,
): Promise<void> {
  for (const stream of streams) {
    const got = await loaded(warehouse.connection, stream);
    const want = truthInRange(sim.dataset, stream, FROM, TO);
    expect(got.size, stream).toBe(want.size);
    expect(got, stream).toEqual(want);
  }
}

const pagedRequests = (sim: Simulator) =>
  [
    '/api/v2/tax/margin-record',
    '/api/v2/mix/order/fill-history',
    '/api/v2/spot/wallet/withdrawal-records',
    '/api/v2/p2p/advList',
  ].reduce((n, p) => n + (sim.stats.byPath[p] ?? 0), 0);

describe('extract', () => {
  it("reads up to the platform's present, closes no window past it, and reads the rest once it has happened", async () => {
    const present = FROM + 100 * DAY_MS + 12_345;
    const serverClock = fakeClock(present);
    await withSim({ clock: serverClock.now }, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        await run(sim, warehouse);
        for (const stream of PAGED_STREAMS) {
          expect(await loaded(warehouse.connection, stream), stream).toEqual(
            truthInRange(sim.dataset, stream, FROM, present),
          );
        }
        const latest = await warehouse.connection.runAndReadAll(
          "SELECT max(epoch_ms(window_end)) AS e FROM coverage WHERE status = 'done'",
        );
        // The extractor measures the server's clock once and counts on with its own; this one stands still.
        expect(Number(latest.getRows()[0]?.[0])).toBeGreaterThanOrEqual(present);
        expect(Number(latest.getRows()[0]?.[0])).toBeLessThan(present + 5_000);
        // What has not happened yet is no gap.
        expect((await statusLines(warehouse, present)).filter((l) => l.includes('gaps:'))).toEqual([]);
        serverClock.advance(TO - present + DAY_MS);
        await run(sim, warehouse);
        await expectExactlyTruth(sim, warehouse);
      } finally {
        await warehouse.close();
      }
    });
  });

  it('reads advList once per side and status with both set and pages of 20, as the live docs require, and loses no advert past 20', async () => {
    const asked: URLSearchParams[] = [];
    await withSim(
      { onRequest: (r) => (r.path === '/api/v2/p2p/advList' ? asked.push(r.query) : undefined) },
      async (sim) => {
        const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
        try {
          await run(sim, warehouse, { streams: STREAMS.filter((s) => s.name === 'p2p_advertisements') });
          await expectExactlyTruth(sim, warehouse, ['p2p_advertisements']);
        } finally {
          await warehouse.close();
        }
      },
    );
    expect(new Set(asked.map((q) => `${q.get('side')}:${q.get('status')}`))).toEqual(
      new Set([
        'buy:online',
        'buy:offline',
        'buy:editing',
        'buy:completed',
        'sell:online',
        'sell:offline',
        'sell:editing',
        'sell:completed',
      ]),
    );
    expect(new Set(asked.map((q) => q.get('limit')))).toEqual(new Set(['20']));
    // The run of 137 adverts in one millisecond took pages after the first.
    expect(asked.some((q) => q.get('idLessThan') !== null)).toBe(true);
  });

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
        const balances = await warehouse.connection.runAndReadAll(
          "SELECT count(*)::INTEGER AS n FROM raw_records WHERE stream = 'account_balances'",
        );
        expect(balances.getRowObjectsJS()[0]?.['n']).toBe(12);
      } finally {
        await warehouse.close();
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
        await warehouse.close();
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
        const refused = windowRefusals(sim);
        expect(refused).toBeGreaterThan(0);
        // A later run over new ground plans 30-day windows at once: no more refusals.
        await warehouse.connection.run("DELETE FROM coverage WHERE stream = 'margin_records'");
        await run(sim, warehouse);
        expect(windowRefusals(sim)).toBe(refused);
      } finally {
        await warehouse.close();
      }
    });
  });
});

/**
 * The answers of HTTP 400 but the account-kind probe's: a classic key is refused on GET /api/v3/account/settings
 * with 40084 once per extraction, as the platform does (docs/unified-accounts.md).
 */
function windowRefusals(sim: Simulator): number {
  return (sim.stats.byStatus[400] ?? 0) - (sim.stats.byPath['/api/v3/account/settings'] ?? 0);
}

describe('extract against a platform that moves', () => {
  it('works from a machine whose clock is 5 minutes off the server', async () => {
    await withSim({ records: 300 }, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const skewed = () => Date.now() + 5 * 60_000;
        const client = createSignedClient({ baseUrl: sim.baseUrl, credentials: sim.credentials, clock: skewed });
        try {
          await extract({
            warehouse,
            client,
            account: 'default',
            runId: 'skew',
            streams: STREAMS,
            from: FROM,
            to: TO,
            rateScale: 1000,
            clock: skewed,
          });
          expect(Math.round(client.offsetMs / 1000)).toBe(-300);
        } finally {
          await client.close();
        }
        expect(windowRefusals(sim)).toBe(0);
        await expectExactlyTruth(sim, warehouse);
      } finally {
        await warehouse.close();
      }
    });
  });

  it('takes the new payload of a withdrawal whose status moved and keeps its first fetch time', async () => {
    let simNow = Date.now();
    await withSim({ records: 300, pendingMs: 60_000, clock: () => simNow }, async (sim) => {
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const fetchTimes = async () =>
          (
            await warehouse.connection.runAndReadAll(
              "SELECT key, json_extract_string(payload, '$.status') AS status, epoch_ms(first_fetched_at) AS first, epoch_ms(last_fetched_at) AS last FROM raw_records WHERE stream = 'withdrawals' ORDER BY key",
            )
          ).getRowObjectsJS();
        const movers = sim.dataset.streams.withdrawals[0]!.records.filter((r) => r.before !== undefined).map(
          (r) => r.id,
        );
        await run(sim, warehouse, { streams: STREAMS.filter((s) => s.name === 'withdrawals'), clock: () => simNow });
        const before = await fetchTimes();
        expect(before.filter((r) => movers.includes(String(r['key']))).map((r) => r['status'])).toEqual([
          'pending',
          'pending',
          'pending',
        ]);
        simNow += 61_000;
        // Read the window again, as a nightly refresh does.
        await warehouse.connection.run("DELETE FROM coverage WHERE stream = 'withdrawals'");
        await run(sim, warehouse, { streams: STREAMS.filter((s) => s.name === 'withdrawals'), clock: () => simNow });
        const after = await fetchTimes();
        const final = new Map(sim.dataset.streams.withdrawals[0]!.records.map((r) => [r.id, r.record['status']]));
        expect(after.map((r) => r['status'])).toEqual(after.map((r) => final.get(String(r['key']))));
        expect(after.map((r) => r['first'])).toEqual(before.map((r) => r['first']));
        expect(after.map((r) => r['last'])).toEqual(after.map(() => BigInt(simNow)));
        expect(before.map((r) => r['last'])).toEqual(before.map(() => BigInt(simNow - 61_000)));
        await expectExactlyTruth(sim, warehouse, ['withdrawals']);
      } finally {
        await warehouse.close();
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
      const result = await extract({
        warehouse,
        client,
        account: 'default',
        runId: 'real',
        streams: STREAMS,
        from: FROM,
        to,
      });
      expect(sim.stats.byStatus[429]).toBeUndefined();
      expect(result.total.rateLimited).toBe(0);
      // Each endpoint was driven at its limit: margin-record (1/s) needed several requests.
      expect(sim.stats.byPath['/api/v2/tax/margin-record']).toBeGreaterThanOrEqual(3);
      for (const stream of PAGED_STREAMS)
        expect(await loaded(warehouse.connection, stream)).toEqual(truthInRange(sim.dataset, stream, FROM, to));
    } finally {
      await client.close();
      await warehouse.close();
      await sim.close();
    }
  }, 30_000);
});
