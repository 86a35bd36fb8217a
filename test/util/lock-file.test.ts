import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withLockFile } from '../../src/util/lock-file.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';

const T0 = 1_700_000_000_000;
const ME = 4242;
const OTHER = 777;
const NS = '4026531836';

let dir: string;
let lock: string;
let clock: FakeClock;
let sleeps: number[];
/** The processes of the machine that still run. */
let alive: Set<number>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lp-lock-'));
  lock = join(dir, 'budget.json.lock');
  clock = fakeClock(T0);
  sleeps = [];
  alive = new Set([ME, OTHER]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Waiting moves the fake clock: a test never waits real time. `onSleep` may change the world meanwhile. */
function options(onSleep: () => void = () => undefined) {
  return {
    clock: clock.now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      clock.advance(ms);
      onSleep();
      return Promise.resolve();
    },
    isAlive: (pid: number) => alive.has(pid),
    pid: ME,
    ns: NS,
  };
}

const heldBy = (pid: number, at: number, ns = NS) => writeFileSync(lock, `${JSON.stringify({ pid, ns, at })}\n`);

describe('withLockFile', () => {
  it('holds the lock, with its pid and time, for the work, and removes it after, also when the work throws', async () => {
    const seen = await withLockFile(lock, () => JSON.parse(readFileSync(lock, 'utf8')) as unknown, options());
    expect(seen).toEqual({ pid: ME, ns: NS, at: T0, nonce: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(existsSync(lock)).toBe(false);
    await expect(
      withLockFile(
        lock,
        () => {
          throw new Error('work failed');
        },
        options(),
      ),
    ).rejects.toThrow('work failed');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a lock a running process took a moment ago, and takes it once it is released', async () => {
    heldBy(OTHER, T0 - 1000);
    const result = await withLockFile(
      lock,
      () => 'mine',
      options(() => {
        // The holder releases it after a few tries.
        if (sleeps.length === 3) rmSync(lock);
      }),
    );
    expect(result).toBe('mine');
    expect(sleeps).toHaveLength(3);
    expect(sleeps.every((ms) => ms >= 2 && ms <= 4)).toBe(true);
  });

  it('breaks a lock older than five seconds, though its holder still runs (stopped, or on another machine)', async () => {
    heldBy(OTHER, T0 - 1000);
    // Never released: it goes stale 4 s later by the clock the lock's times are written in.
    expect(await withLockFile(lock, () => 'mine', options())).toBe('mine');
    expect(clock.now() - (T0 - 1000)).toBeGreaterThanOrEqual(5000);
    expect(clock.now() - (T0 - 1000)).toBeLessThan(5010);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('breaks at once a lock whose process has ended', async () => {
    heldBy(OTHER, T0);
    alive.delete(OTHER);
    expect(await withLockFile(lock, () => 'mine', options())).toBe('mine');
    expect(sleeps).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("judges a lock of another container's process by its age alone: its pid means nothing here", async () => {
    heldBy(OTHER, T0, '4026532000');
    alive.delete(OTHER);
    expect(await withLockFile(lock, () => 'mine', options())).toBe('mine');
    expect(clock.now() - T0).toBeGreaterThanOrEqual(5000);
  });

  it('judges a lock without its content (its holder ended between making and writing it) by its age', async () => {
    writeFileSync(lock, '');
    utimesSync(lock, new Date(T0 - 1000), new Date(T0 - 1000));
    expect(await withLockFile(lock, () => 'mine', options())).toBe('mine');
    expect(clock.now() - (T0 - 1000)).toBeGreaterThanOrEqual(5000);
  });

  it('does not remove a lock that is no longer its own (it was broken and taken while its holder stood still)', async () => {
    await withLockFile(
      lock,
      () => {
        rmSync(lock);
        heldBy(OTHER, T0);
      },
      options(),
    );
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({ pid: OTHER, ns: NS, at: T0 });
  });

  it('throws what is not a held lock: a folder that cannot be written', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    await expect(withLockFile(join(file, 'x.lock'), () => 'never', options())).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });
});
