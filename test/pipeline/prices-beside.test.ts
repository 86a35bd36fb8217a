import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliHere, simEnv } from '../helpers/cli.js';

// Prices beside the extraction (docs/values.md, "Where prices come from"): a year-end reads candles while its
// records are still being fetched, and writes the very files the stages give one after another.

const CANDLES = '/api/v2/spot/market/history-candles';
const RANGE = ['--from', '2025-01-01', '--to', '2025-04-01'];
let dir: string;
let sim: Simulator;
const requests: { path: string; at: number }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-beside-'));
  sim = await startSimulator({ seed: 'beside', from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 3, 1), records: 300, rateScale: 20, pendingMs: 0, onRequest: ({ path }) => requests.push({ path, at: performance.now() }) });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (db: string, ...args: string[]) =>
  runCliHere([...args, '--base-url', sim.baseUrl, '--db', join(dir, db), '--out', join(dir, `out-${db}`), '--rate-scale', '20', '--fiat', 'EUR', '--quiet'], { env: simEnv(sim.credentials) });

describe('prices beside the extraction', () => {
  it('reads candles while the records are fetched, and writes the files the stages write one after another', async () => {
    requests.length = 0;
    const run = await cli('together', 'run', 'year-end', ...RANGE);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const records = requests.filter((r) => r.path !== CANDLES && r.path !== '/api/v2/public/time');
    const candles = requests.filter((r) => r.path === CANDLES);
    // Most candles are read before the last record is: the prices stage after the transform reads what is left.
    const before = candles.filter((c) => c.at < (records.at(-1)?.at ?? 0)).length;
    expect(before / candles.length).toBeGreaterThan(0.5);

    for (const stage of [['extract', ...RANGE], ['transform'], ['prices', ...RANGE], ['export', ...RANGE, '--format', 'csv,koinly,cointracking']]) {
      const one = await cli('apart', ...stage);
      expect([stage[0], one.status, one.stderr]).toEqual([stage[0], 0, '']);
    }
    for (const file of ['ledger_valued.csv', 'year_summary.csv', 'koinly.csv', 'cointracking.csv']) {
      expect((await readFile(join(dir, 'out-together', file))).equals(await readFile(join(dir, 'out-apart', file))), file).toBe(true);
    }
  }, 120_000);
});
