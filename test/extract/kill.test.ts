import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/sim/data/rng.js';
import { PAGED_STREAMS } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { readCoverage } from '../../src/reads/coverage.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { CLI, runCliProcess } from '../helpers/cli.js';
import { loaded, truthOfRun } from '../helpers/truth.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 4, 1);
const PARTITION_PARAM: Record<string, string> = {
  '/api/v2/tax/margin-record': 'marginType',
  '/api/v2/mix/order/fill-history': 'productType',
};
const STREAM_OF: Record<string, string> = {
  '/api/v2/tax/margin-record': 'margin_records',
  '/api/v2/mix/order/fill-history': 'futures_fills',
  '/api/v2/spot/wallet/withdrawal-records': 'withdrawals',
  '/api/v2/p2p/advList': 'p2p_advertisements',
};

let dir: string;
let sim: Simulator;
/** Windows requested, as `stream/partition/start/end`, of the run in progress. */
let requested: string[] = [];
/** Called on every record request of the run in progress. */
let onRecordRequest: () => void = () => {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-kill-'));
  // Scaled so that a whole run takes a couple of seconds: kills land in every phase of it.
  sim = await startSimulator({
    seed: 'kill',
    from: FROM,
    to: TO,
    records: 3000,
    rateScale: 40,
    pendingMs: 0,
    onRequest: ({ path, query }) => {
      const stream = STREAM_OF[path];
      if (stream === undefined) return;
      const partition = query.get(PARTITION_PARAM[path] ?? '') ?? '';
      requested.push(`${stream}/${partition}/${query.get('startTime')}/${Number(query.get('endTime')) + 1}`);
      onRecordRequest();
    },
  });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const args = (db: string) => [
  'extract',
  '--from',
  '2025-01-01',
  '--to',
  '2025-05-01',
  '--base-url',
  sim.baseUrl,
  '--db',
  db,
  '--rate-scale',
  '40',
  '--quiet',
];
const env = () => ({
  ...process.env,
  LEDGERPIPE_API_KEY: sim.credentials.apiKey,
  LEDGERPIPE_API_SECRET: sim.credentials.secretKey,
  LEDGERPIPE_API_PASSPHRASE: sim.credentials.passphrase,
});

async function doneWindows(db: string): Promise<Set<string>> {
  const warehouse = await openWarehouse(db);
  try {
    const done = new Set<string>();
    for (const stream of PAGED_STREAMS) {
      for (const row of await readCoverage(warehouse.connection, 'default', stream)) {
        if (row.status === 'done') done.add(`${stream}/${row.partition}/${row.window.start}/${row.window.end}`);
      }
    }
    return done;
  } finally {
    await warehouse.close();
  }
}

describe('extract killed with SIGKILL at random moments', () => {
  it('loses and doubles nothing, and no rerun asks again for a window already done', async () => {
    const db = join(dir, 'killed.duckdb');
    const rng = createRng('kill-moments');
    let killed = 0;
    for (let i = 0; i < 20; i++) {
      const done = await doneWindows(db);
      requested = [];
      const child = spawn(process.execPath, [CLI, ...args(db)], { env: env(), stdio: 'ignore' });
      const exited = once(child, 'exit');
      const timers: NodeJS.Timeout[] = [];
      const kill = (delay: number) => timers.push(setTimeout(() => child.kill('SIGKILL'), delay));
      // Most kills land after a random number of requests plus a few ms, so mid-page, mid-commit and
      // between pages all happen; the rest land while the process starts or syncs its clock.
      if (rng.chance(0.2)) {
        kill(rng.int(30, 400));
      } else {
        const after = rng.int(1, 12);
        const delay = rng.int(0, 40);
        let seen = 0;
        onRecordRequest = () => {
          if (++seen === after) kill(delay);
        };
      }
      const [code, signal] = (await exited) as [number | null, string | null];
      for (const t of timers) clearTimeout(t);
      onRecordRequest = () => {};
      if (signal === 'SIGKILL') killed++;
      else expect(code).toBe(0);
      expect(requested.filter((w) => done.has(w))).toEqual([]);
    }
    expect(killed).toBe(20);
    const done = await doneWindows(db);
    requested = [];
    const final = await runCliProcess(args(db), { env: env() });
    expect(final.status).toBe(0);
    expect(requested.filter((w) => done.has(w))).toEqual([]);
    const warehouse = await openWarehouse(db);
    try {
      for (const stream of PAGED_STREAMS) {
        expect(await loaded(warehouse.connection, stream), stream).toEqual(truthOfRun(sim.dataset, stream, FROM, TO));
      }
      const open = await warehouse.connection.runAndReadAll(
        "SELECT count(*)::INTEGER AS n FROM coverage WHERE status <> 'done'",
      );
      expect(open.getRowObjectsJS()[0]?.['n']).toBe(0);
    } finally {
      await warehouse.close();
    }
  }, 120_000);
});
