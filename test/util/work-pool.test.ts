import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/util/work-pool.js';

/** A promise and the functions that settle it, so a test decides when each piece of work ends. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('runPool', () => {
  it('runs at most N at a time, in order, and follow-ups join the queue', async () => {
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const done = runPool(['a', 'b', 'c', 'd'], { concurrency: 2 }, async (item) => {
      started.push(item);
      running++;
      most = Math.max(most, running);
      const gate = deferred();
      gates.set(item, gate);
      await gate.promise;
      running--;
      return item === 'b' ? ['b1', 'b2'] : [];
    });
    await tick();
    expect(started).toEqual(['a', 'b']);
    gates.get('b')?.resolve();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const item of ['a', 'c', 'd', 'b1', 'b2']) {
      await tick();
      gates.get(item)?.resolve();
    }
    await done;
    expect([started, most]).toEqual([['a', 'b', 'c', 'd', 'b1', 'b2'], 2]);
  });

  it('stops at the first failure: nothing queued starts, the running finish, the first failure is thrown', async () => {
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const started: string[] = [];
    const finished: string[] = [];
    const done = runPool(['a', 'b', 'c', 'd'], { concurrency: 2 }, async (item) => {
      started.push(item);
      const gate = deferred();
      gates.set(item, gate);
      await gate.promise;
      finished.push(item);
    });
    await tick();
    gates.get('a')?.reject(new Error('a failed'));
    await tick();
    gates.get('b')?.reject(new Error('b failed too'));
    await expect(done).rejects.toThrow('a failed');
    expect([started, finished]).toEqual([['a', 'b'], []]);
  });

  it('waits for the running work before it throws', async () => {
    const order: string[] = [];
    const slow = deferred();
    const done = runPool([1, 2], { concurrency: 2 }, async (n) => {
      if (n === 1) throw new Error('one');
      await slow.promise;
      order.push('two finished');
    }).catch((error: Error) => order.push(`thrown: ${error.message}`));
    await tick();
    expect(order).toEqual([]);
    slow.resolve();
    await done;
    expect(order).toEqual(['two finished', 'thrown: one']);
  });

  it('does nothing for no items', async () => {
    await expect(runPool([], { concurrency: 4 }, () => Promise.reject(new Error('never')))).resolves.toBeUndefined();
  });
});
