import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  budgetFile,
  claimIn,
  WAITING_MS,
  type BudgetState,
  type ClaimRequest,
} from '../../src/extract/ip-budget-file.js';
import { fakeClock } from '../helpers/fake-clock.js';

const T0 = 1_700_000_000_000;
/** A grant counts for its lease (0.5 s) and the window after it (a minute and the 1.1 s arrival margin). */
const HOLD = 61_600;
const LIMIT = 100;

const empty = (): BudgetState => ({ version: 1, processes: [] });
const claim = (state: BudgetState, pid: number, now: number, want: number, more: Partial<ClaimRequest> = {}) =>
  claimIn(state, { pid, now, want, needed: want, perMinute: LIMIT, holdMs: HOLD, ...more });

describe("claimIn: the bookkeeping of the machine's budget", () => {
  it('grants up to the limit over every process, and nothing more until a grant stops counting', () => {
    const state = empty();
    expect(claim(state, 1, T0, 60).granted).toBe(60);
    // A second process, or the next of a cron, sees the first one's grants.
    expect(claim(state, 2, T0 + 1000, 60)).toEqual({ granted: 40, at: T0 + 1000, retryAt: T0 + HOLD });
    expect(claim(state, 2, T0 + 2000, 10)).toEqual({ granted: 0, at: T0 + 2000, retryAt: T0 + HOLD });
    // The first grant stops counting a lease and a window after it was made: its 60 are free again.
    expect(claim(state, 2, T0 + HOLD - 1, 10).granted).toBe(0);
    expect(claim(state, 2, T0 + HOLD, 100).granted).toBe(60);
  });

  it('lets a process that ended keep its last minute, then forgets it: its entries expire with their minute', () => {
    const state = empty();
    claim(state, 1, T0, 30);
    claim(state, 1, T0 + 20_000, 30);
    // Process 1 is gone (killed, or ended without giving anything back): nothing but time removes its grants.
    claim(state, 2, T0 + 30_000, 0);
    expect(state.processes.map((p) => [p.pid, p.grants.map((g) => g.n)])).toEqual([[1, [30, 30]]]);
    claim(state, 2, T0 + HOLD, 0);
    expect(state.processes.map((p) => [p.pid, p.grants.map((g) => g.n)])).toEqual([[1, [30]]]);
    expect(claim(state, 2, T0 + 20_000 + HOLD, 100).granted).toBe(100);
    expect(state.processes.map((p) => p.pid)).toEqual([2]);
  });

  it('gives back what a grant left unspent when its lease ended', () => {
    const state = empty();
    const first = claim(state, 1, T0, 80);
    expect(claim(state, 1, T0 + 600, 50, { settle: { at: first.at, n: 80, used: 30 } }).granted).toBe(50);
    expect(state.processes[0]?.grants.map((g) => g.n)).toEqual([30, 50]);
    // Nothing spent: the grant goes.
    claim(state, 1, T0 + 1200, 0, { settle: { at: T0 + 600, n: 50, used: 0 } });
    expect(state.processes[0]?.grants.map((g) => g.n)).toEqual([30]);
  });

  it('shares the limit evenly while another process waits, and marks a process refused what it needs as waiting', () => {
    const state = empty();
    expect(claim(state, 1, T0, 80).granted).toBe(80);
    // Process 2 needs 60 and gets the 20 left: it waits for more, and says so at each claim.
    expect(claim(state, 2, T0 + 100, 60).granted).toBe(20);
    expect(state.processes.find((p) => p.pid === 2)?.waitingUntil).toBe(T0 + 100 + WAITING_MS);
    expect(claim(state, 2, T0 + HOLD - 500, 60)).toEqual({ granted: 0, at: T0 + HOLD - 500, retryAt: T0 + HOLD });
    // Process 1's 80 stop counting. Alone it could take the 80 free; while 2 waits, it takes its half of the limit.
    expect(claim(state, 1, T0 + HOLD, 100)).toEqual({ granted: 50, at: T0 + HOLD, retryAt: T0 + 2 * HOLD });
    // Process 2 takes the rest, up to its own half.
    expect(claim(state, 2, T0 + HOLD + 10, 60).granted).toBe(30);
    expect(state.processes.map((p) => [p.pid, p.grants.reduce((n, g) => n + g.n, 0)]).sort()).toEqual([
      [1, 50],
      [2, 50],
    ]);
    // Once 2 has what it needs it no longer waits, and 1 may take whatever is free again.
    expect(claim(state, 2, T0 + 100 + HOLD, 0).granted).toBe(0);
    expect(state.processes.find((p) => p.pid === 2)?.waitingUntil).toBeUndefined();
    expect(claim(state, 1, T0 + 100 + HOLD, 100).granted).toBe(20);
  });
});

describe('budgetFile: the file, under its lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lp-budget-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const sleep = () => Promise.resolve();

  it('is shared by the processes of one address, named by a hash of it, holding pids, counts and times only', async () => {
    const clock = fakeClock(T0);
    const a = budgetFile({ dir, origin: 'https://api.example.com', clock: clock.now, sleep, pid: 1, ns: '4026531836' });
    const b = budgetFile({ dir, origin: 'https://api.example.com', clock: clock.now, sleep, pid: 2, ns: '4026531836' });
    const other = budgetFile({
      dir,
      origin: 'https://other.example.com',
      clock: clock.now,
      sleep,
      pid: 2,
      ns: '4026531836',
    });
    // Pid 1 of another container, on the same folder: another process.
    const container = budgetFile({
      dir,
      origin: 'https://api.example.com',
      clock: clock.now,
      sleep,
      pid: 1,
      ns: '4026532000',
    });
    expect((await a.claim({ want: 70, needed: 70, perMinute: LIMIT, holdMs: HOLD })).granted).toBe(70);
    clock.advance(10);
    expect((await b.claim({ want: 70, needed: 70, perMinute: LIMIT, holdMs: HOLD })).granted).toBe(30);
    expect((await other.claim({ want: 70, needed: 70, perMinute: LIMIT, holdMs: HOLD })).granted).toBe(70);
    expect((await container.claim({ want: 10, needed: 0, perMinute: LIMIT, holdMs: HOLD })).granted).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([a.path, other.path].map((p) => p.slice(dir.length + 1)).sort());
    expect(a.path).toMatch(/\/[0-9a-f]{16}\.json$/);
    const text = readFileSync(a.path, 'utf8');
    expect(text).not.toContain('example');
    expect(JSON.parse(text)).toEqual({
      version: 1,
      processes: [
        { pid: 1, ns: '4026531836', grants: [{ at: T0, until: T0 + HOLD, n: 70 }] },
        {
          pid: 2,
          ns: '4026531836',
          waitingUntil: T0 + 10 + WAITING_MS,
          grants: [{ at: T0 + 10, until: T0 + 10 + HOLD, n: 30 }],
        },
      ],
    });
  });

  it('starts afresh, and says so, when the file holds something else', async () => {
    const file = budgetFile({ dir, origin: 'https://api.example.com', clock: () => T0, sleep, pid: 1 });
    writeFileSync(file.path, '{"not": "a budget"');
    expect(await file.claim({ want: 10, needed: 10, perMinute: LIMIT, holdMs: HOLD })).toEqual({
      granted: 10,
      at: T0,
      replaced: true,
    });
    expect(await file.claim({ want: 10, needed: 10, perMinute: LIMIT, holdMs: HOLD })).toEqual({ granted: 10, at: T0 });
  });

  it('removes what was left in its folder more than a day ago', async () => {
    const old = join(dir, '0123456789abcdef.json');
    writeFileSync(old, '{}');
    utimesSync(old, new Date(T0 - 86_400_001), new Date(T0 - 86_400_001));
    const recent = join(dir, 'fedcba9876543210.json');
    writeFileSync(recent, '{}');
    utimesSync(recent, new Date(T0 - 1000), new Date(T0 - 1000));
    const file = budgetFile({ dir, origin: 'https://api.example.com', clock: () => T0, sleep, pid: 1 });
    await file.claim({ want: 1, needed: 1, perMinute: LIMIT, holdMs: HOLD });
    expect(readdirSync(dir).sort()).toEqual([file.path.slice(dir.length + 1), 'fedcba9876543210.json'].sort());
  });

  it('throws when its folder cannot be made', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const file = budgetFile({
      dir: join(dir, 'a-file', 'ip-budget'),
      origin: 'https://api.example.com',
      clock: () => T0,
      sleep,
      pid: 1,
    });
    await expect(file.claim({ want: 1, needed: 1, perMinute: LIMIT, holdMs: HOLD })).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });
});
