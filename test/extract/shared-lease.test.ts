import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimIn, type BudgetFile, type BudgetState } from '../../src/extract/ip-budget-file.js';
import { createIpBudget } from '../../src/extract/ip-budget.js';
import { createSharedLease, LEASE_MS } from '../../src/extract/shared-lease.js';
import type { Logger } from '../../src/util/logger.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';

const T0 = 1_700_000_000_000;
const WINDOW = 61_100;

/**
 * The budget file of one process, kept in memory (ip-budget-file.test.ts tests the file itself), counting its claims.
 */
function memoryFile(clock: FakeClock, state: BudgetState, pid: number): BudgetFile & { claims: number } {
  const file = {
    path: '/memory',
    claims: 0,
    claim: async (request: Parameters<BudgetFile['claim']>[0]) => {
      file.claims++;
      return claimIn(state, { ...request, pid, now: clock.now() });
    },
  };
  return file;
}

function fakeTime() {
  const clock = fakeClock(T0);
  // The clock moves when the sleep ends, after what was let go before it has run.
  const sleep = (ms: number): Promise<void> => Promise.resolve().then(() => void clock.advance(ms));
  return { clock, sleep };
}

const failOnError = () => {
  throw new Error('the file did not fail');
};

describe('createSharedLease', () => {
  it('claims a batch at a time: a steady 100 requests a second touch the file about twice a second', async () => {
    const { clock, sleep } = fakeTime();
    const file = memoryFile(clock, { version: 1, processes: [] }, 1);
    const lease = createSharedLease({
      file,
      perMinute: 5400,
      windowMs: WINDOW,
      clock: clock.now,
      sleep,
      onFailure: failOnError,
    });
    for (let i = 0; i < 1000; i++) {
      await lease.take();
      clock.advance(10);
    }
    // 10 s of requests: a claim per lease once the batch has grown to the demand, and a few while it grows.
    expect(file.claims).toBeGreaterThan(10);
    expect(file.claims).toBeLessThanOrEqual(10_000 / LEASE_MS + 6);
  });

  it("waits when the machine's budget is spent, until a grant stops counting, and never sends more than the limit", async () => {
    const { clock, sleep } = fakeTime();
    const state: BudgetState = { version: 1, processes: [] };
    // Another process took 8 of the 10 just before.
    claimIn(state, { pid: 2, now: T0 - 1000, want: 8, needed: 8, perMinute: 10, holdMs: LEASE_MS + WINDOW });
    const file = memoryFile(clock, state, 1);
    const lease = createSharedLease({
      file,
      perMinute: 10,
      windowMs: WINDOW,
      clock: clock.now,
      sleep,
      onFailure: failOnError,
    });
    const sent: number[] = [];
    await Promise.all(Array.from({ length: 25 }, () => lease.take().then(() => sent.push(clock.now() - T0))));
    // 2 at once, 8 more when the other process's grant stops counting (a lease and a window after it was made).
    expect(sent.slice(0, 2)).toEqual([0, 0]);
    expect(sent[2]).toBeGreaterThanOrEqual(LEASE_MS + WINDOW - 1000);
    expect(sent[2]).toBeLessThan(LEASE_MS + WINDOW - 1000 + 1000);
    // Over every request of both processes, never more than 10 within a lease and a window of one another.
    const all = [...Array.from({ length: 8 }, () => -1000), ...sent];
    for (const t of all) expect(all.filter((u) => u > t - LEASE_MS - WINDOW && u <= t).length).toBeLessThanOrEqual(10);
    expect(sent.at(-1)).toBeGreaterThanOrEqual(2 * (LEASE_MS + WINDOW));
  });

  it('lets the requests of a grant go no closer together than minGapMs, after the first few', async () => {
    const { clock, sleep } = fakeTime();
    const file = memoryFile(clock, { version: 1, processes: [] }, 1);
    const lease = createSharedLease({
      file,
      perMinute: 5400,
      windowMs: WINDOW,
      clock: clock.now,
      sleep,
      onFailure: failOnError,
      minGapMs: 0.5,
    });
    const sent: number[] = [];
    await Promise.all(Array.from({ length: 400 }, () => lease.take().then(() => sent.push(clock.now() - T0))));
    // Two grants (the first claimed as the first request came, the second for the 399 behind it), let go over 0.2 s
    // instead of at once; none forfeited.
    expect(file.claims).toBe(2);
    expect(sent.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    for (let i = 5; i < sent.length; i++)
      expect((sent[i] as number) - (sent[i - 1] as number)).toBeGreaterThanOrEqual(0.5 - 1e-9);
    expect(sent.at(-1)).toBeLessThan(LEASE_MS);
  });

  it('gives back what its last grant left unspent when closed, and refuses requests after', async () => {
    const { clock, sleep } = fakeTime();
    const state: BudgetState = { version: 1, processes: [] };
    const file = memoryFile(clock, state, 1);
    const lease = createSharedLease({
      file,
      perMinute: 100,
      windowMs: WINDOW,
      clock: clock.now,
      sleep,
      onFailure: failOnError,
    });
    await Promise.all(Array.from({ length: 5 }, () => lease.take()));
    for (let i = 0; i < 3; i++) await lease.take();
    // Granted a batch larger than the 8 taken: the rest goes back.
    expect(state.processes[0]?.grants.reduce((n, g) => n + g.n, 0)).toBeGreaterThan(8);
    await lease.close();
    expect(state.processes[0]?.grants.reduce((n, g) => n + g.n, 0)).toBe(8);
    await expect(lease.take()).rejects.toThrow('closed');
  });

  it('lets every request go, and says so once, when the file cannot be used', async () => {
    const { clock, sleep } = fakeTime();
    const failures: unknown[] = [];
    const file: BudgetFile = {
      path: '/nowhere',
      claim: () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })),
    };
    const lease = createSharedLease({
      file,
      perMinute: 10,
      windowMs: WINDOW,
      clock: clock.now,
      sleep,
      onFailure: (e) => failures.push(e),
    });
    await Promise.all(Array.from({ length: 50 }, () => lease.take()));
    await lease.take();
    expect(failures).toHaveLength(1);
    await lease.close();
  });
});

describe("createIpBudget with the machine's budget", () => {
  it("falls back to the process's own budget when the state directory cannot be written, said once", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lp-ip-budget-'));
    try {
      // HOME unwritable, as a read-only home or a file where the cache folder should be makes it.
      writeFileSync(join(dir, 'home'), '');
      const warnings: string[] = [];
      const log: Logger = { debug: () => {}, info: () => {}, warn: (m) => void warnings.push(m), error: () => {} };
      const { clock, sleep } = fakeTime();
      const budget = createIpBudget({
        perMinute: 600,
        clock: clock.now,
        sleep,
        machine: { dir: join(dir, 'home', '.cache', 'ledgerpipe'), log },
      });
      const a = budget.forAddress('https://api.example.com/api/v2');
      const b = budget.forAddress('https://other.example.com');
      for (let i = 0; i < 20; i++) await Promise.all([a.acquire(), b.acquire()]);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^the IP budget of https:\/\/api\.example\.com is this process's alone: cannot use .*\/home\/\.cache\/ledgerpipe\/ip-budget \(ENOTDIR\)\. .*LEDGERPIPE_STATE_DIR/,
        ),
      ]);
      await budget.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
