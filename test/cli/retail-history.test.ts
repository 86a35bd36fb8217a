import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { queryCsv, runCliHere, simEnv, type CliResult } from '../helpers/cli.js';

// The retail account's history read back to its registration, then its year: what `ledgerpipe demo` does with it.
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const HISTORY = 'spot_tax_records,p2p_tax_records,margin_records,deposits,withdrawals';

let dir: string;
let sim: Simulator;
let history: CliResult;
let yearEnd: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-retail-'));
  sim = await startSimulator({ dataset: 'retail', from: FROM, to: TO, rateScale: 1000, pendingMs: 0 });
  const own = ['--base-url', sim.baseUrl, '--db', join(dir, 'w.duckdb'), '--rate-scale', '1000', '--quiet'];
  const registered = new Date(sim.dataset.openedAt).toISOString().slice(0, 10);
  history = await runCliHere(['extract', '--from', registered, '--to', '2025-01-01', '--streams', HISTORY, ...own], { env: simEnv(sim.credentials) });
  yearEnd = await runCliHere(['run', 'year-end', '--year', '2025', '--fiat', 'EUR', '--out', join(dir, 'out'), '--format', 'csv', ...own], { env: simEnv(sim.credentials) });
}, 60_000);
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the retail account, its history read back to its registration', () => {
  it('gives every disposal of its year an acquisition, with no balance break and no unpaired transfer', async () => {
    expect([history.status, history.stderr, yearEnd.status, yearEnd.stderr]).toEqual([0, '', 0, '']);
    expect(yearEnd.stdout).toContain('  every internal transfer has its counterpart\n');
    expect(yearEnd.stdout).toMatch(/ {2}every running balance and every snapshot agrees with the records: \d+ running-balance steps checked/);
    const query = async (sql: string) => (await queryCsv(join(dir, 'w.duckdb'), sql)).trimEnd().split('\n').slice(1);
    expect(await query("SELECT count(*) FILTER (WHERE disposed_at >= '2025-01-01' AND match_rule LIKE '%unmatched'), count(*) FILTER (WHERE match_rule LIKE '%unmatched'), count(*) FILTER (WHERE disposed_at >= '2025-01-01') FROM disposals")).toEqual([
      '0,0,1847',
    ]);
    expect(await query('SELECT (SELECT count(*) FROM balance_breaks), (SELECT count(*) FROM unpaired_transfers)')).toEqual(['0,0']);
  });
});
