import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type SimAccount, type Simulator } from '../../src/sim/server.js';
import { runCliProcess, type CliResult } from '../helpers/cli.js';

const ACCOUNTS = 10;
// At --rate-scale 20 the simulator's minute lasts 3 s: 200 requests in any 3 s over every key of the address. Each
// shard of five accounts asks for some 360 requests, its keys together able to send some 900 a second at this scale,
// so each process is held back by the IP budget to its end, and a second process that starts within 3 s of the
// first one's last requests, or beside it, breaches the cap unless the two share one budget. Before the machine's
// budget (each process its own), the same test breached: one after the other, 1 breach and 655 requests refused;
// at once, 2 breaches and 2,391 refused (with a cap of 300).
const SCALE = 20;
const IP_LIMIT = 200;

let dir: string;
let sim: Simulator;
let config: string;
let env: NodeJS.ProcessEnv;

/** The environment variables of one account's credentials, named after it. */
const envName = (a: SimAccount, field: string) => `${a.name.toUpperCase().replace(/-/g, '_')}_${field}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-ip-machine-'));
  config = join(dir, 'ledgerpipe.config.json');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
// A simulator per test: the per-IP window and its counts start empty.
beforeEach(async () => {
  sim = await startSimulator({ seed: 'ip-machine', from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 1, 1), records: 20, rateScale: SCALE, pendingMs: 0, accounts: ACCOUNTS, ipLimitPerMinute: IP_LIMIT });
  await writeFile(config, JSON.stringify({
    ipLimit: IP_LIMIT,
    accounts: sim.accounts.map((a) => ({ name: a.name, baseUrl: sim.baseUrl, env: { key: envName(a, 'KEY'), secret: envName(a, 'SECRET'), passphrase: envName(a, 'PASSPHRASE') } })),
  }));
  const credentials = Object.fromEntries(sim.accounts.flatMap((a) => [[envName(a, 'KEY'), a.credentials.apiKey], [envName(a, 'SECRET'), a.credentials.secretKey], [envName(a, 'PASSPHRASE'), a.credentials.passphrase]]));
  // The machine's budget in a folder of this test's own (the user's cache directory is never touched).
  env = { ...process.env, ...credentials, LEDGERPIPE_STATE_DIR: await mkdtemp(join(dir, 'state-')) };
});
afterEach(async () => {
  await sim.close();
});

/** One shard of the accounts, extracted into a warehouse of its own. */
function shard(index: number): Promise<CliResult> {
  const db = join(dir, `shard-${index}-${Date.now()}.duckdb`);
  return runCliProcess(['extract', '--from', '2025-01-01', '--to', '2025-02-01', '--config', config, '--db', db, '--shard', `${index}/2`, '--rate-scale', String(SCALE), '--quiet'], { env });
}

describe('one IP budget per machine', () => {
  it('keeps two shards run one after the other under the per-IP cap together', async () => {
    const first = await shard(0);
    expect([first.status, first.stderr]).toEqual([0, '']);
    const afterFirst = sim.stats.requests;
    const second = await shard(1);
    expect([second.status, second.stderr]).toEqual([0, '']);
    // Each process asked for more than one window of the cap: the budget held both back.
    expect(afterFirst).toBeGreaterThan(IP_LIMIT * 1.5);
    expect(sim.stats.requests - afterFirst).toBeGreaterThan(IP_LIMIT * 1.5);
    expect([sim.stats.ipBreaches, sim.stats.ipBlocked, sim.stats.byStatus[429] ?? 0]).toEqual([0, 0, 0]);
    // The state file names no address: one file, named by a hash of the origin.
    expect(await readdir(join(env['LEDGERPIPE_STATE_DIR'] as string, 'ip-budget'))).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.json$/)]);
  }, 90_000);

  it('keeps two runs at once, on two warehouses, under the per-IP cap together', async () => {
    const [a, b] = await Promise.all([shard(0), shard(1)]);
    expect([a.status, a.stderr, b.status, b.stderr]).toEqual([0, '', 0, '']);
    expect(sim.stats.requests).toBeGreaterThan(IP_LIMIT * 3);
    expect([sim.stats.ipBreaches, sim.stats.ipBlocked, sim.stats.byStatus[429] ?? 0]).toEqual([0, 0, 0]);
  }, 90_000);
});
