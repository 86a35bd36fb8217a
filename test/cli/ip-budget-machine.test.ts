import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliProcess, type CliResult } from '../helpers/cli.js';
import { writeSimAccountsConfig } from '../helpers/sim-accounts.js';

const ACCOUNTS = 10;
// At --rate-scale 10 the simulator's minute lasts 6 s: 280 requests in any 6 s over every key of the address. Each
// shard of five accounts asks for some 360 requests, and its keys together can send them in a second or two at this
// scale: each process is held back by the IP budget, and the next one starts (a process takes a second or so to
// start) well within the minute of the first one's last requests. Unless the two share one budget, the second one's
// first requests breach the cap. Before the machine's budget (each process its own), this test breached: one after
// the other, 1 breach and 1,098 to 1,111 requests refused; at once, 2 breaches and 3,210 to 3,580 refused (2 runs).
const SCALE = 10;
const IP_LIMIT = 280;

let dir: string;

/** The environment variables of one account's credentials, named after it. */

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-ip-machine-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Setup {
  sim: Simulator;
  /** Extracts one of two shards of the accounts into a warehouse of its own, as its own process. */
  shard(index: number): Promise<CliResult>;
  stateDir: string;
}

/**
 * A simulator of its own (its per-IP window and counts start empty), a config of its accounts and a state directory
 * of its own (the user's cache directory is never touched). Tests of this file run at once: each has its own address.
 */
async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const sim = await startSimulator({
    seed: 'ip-machine',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 1, 1),
    records: 20,
    rateScale: SCALE,
    pendingMs: 0,
    accounts: ACCOUNTS,
    ipLimitPerMinute: IP_LIMIT,
  });
  try {
    const here = await mkdtemp(join(dir, 'run-'));
    const config = join(here, 'ledgerpipe.config.json');
    const credentials = await writeSimAccountsConfig(config, sim, { ipLimit: IP_LIMIT });
    const stateDir = join(here, 'state');
    const env = { ...process.env, ...credentials, LEDGERPIPE_STATE_DIR: stateDir };
    const shard = (index: number) => {
      const db = join(here, `shard-${index}.duckdb`);
      return runCliProcess(
        [
          'extract',
          '--from',
          '2025-01-01',
          '--to',
          '2025-02-01',
          '--config',
          config,
          '--db',
          db,
          '--shard',
          `${index}/2`,
          '--rate-scale',
          String(SCALE),
          '--quiet',
        ],
        { env },
      );
    };
    await test({ sim, shard, stateDir });
  } finally {
    await sim.close();
  }
}

describe('one IP budget per machine', () => {
  it.concurrent(
    'keeps two shards run one after the other under the per-IP cap together',
    () =>
      withSetup(async ({ sim, shard, stateDir }) => {
        const first = await shard(0);
        expect([first.status, first.stderr]).toEqual([0, '']);
        const afterFirst = sim.stats.requests;
        const second = await shard(1);
        expect([second.status, second.stderr]).toEqual([0, '']);
        // Each process asked for more than one window of the cap: the budget held both back.
        expect(afterFirst).toBeGreaterThan(IP_LIMIT);
        expect(sim.stats.requests - afterFirst).toBeGreaterThan(IP_LIMIT);
        expect([sim.stats.ipBreaches, sim.stats.ipBlocked, sim.stats.byStatus[429] ?? 0]).toEqual([0, 0, 0]);
        // The state file names no address (one file, named by a hash of the origin) and holds pids, counts and times
        // only.
        const files = await readdir(join(stateDir, 'ip-budget'));
        expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.json$/)]);
        const text = await readFile(join(stateDir, 'ip-budget', files[0] as string), 'utf8');
        for (const secret of [
          new URL(sim.baseUrl).host,
          ...sim.accounts.flatMap((a) => [a.name, a.credentials.apiKey]),
        ])
          expect(text).not.toContain(secret);
        const state = JSON.parse(text) as { version: number; processes: Record<string, unknown>[] };
        expect(state.version).toBe(1);
        for (const p of state.processes)
          expect(Object.keys(p).filter((k) => !['pid', 'ns', 'grants', 'waitingUntil'].includes(k))).toEqual([]);
      }),
    90_000,
  );

  it.concurrent(
    'keeps two runs at once, on two warehouses, under the per-IP cap together',
    () =>
      withSetup(async ({ sim, shard }) => {
        const started = Date.now();
        const timed = (run: Promise<CliResult>) => run.then((r) => ({ ...r, seconds: (Date.now() - started) / 1000 }));
        const [a, b] = await Promise.all([timed(shard(0)), timed(shard(1))]);
        expect([a.status, a.stderr, b.status, b.stderr]).toEqual([0, '', 0, '']);
        expect(sim.stats.requests).toBeGreaterThan(IP_LIMIT * 2);
        // Shared evenly: the two shards ask for about as much, and neither waits for the other's end (both took 17 s
        // here, against 7.6 s for a window of the budget).
        expect(Math.abs(a.seconds - b.seconds)).toBeLessThan(6);
        expect([sim.stats.ipBreaches, sim.stats.ipBlocked, sim.stats.byStatus[429] ?? 0]).toEqual([0, 0, 0]);
      }),
    90_000,
  );
});
