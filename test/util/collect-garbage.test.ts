import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/util/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects an object nothing refers to any more, and can be called again', async () => {
    const refs = [
      new WeakRef({ pages: Array.from({ length: 1000 }, () => 'x') }),
      new WeakRef({ pages: Array.from({ length: 1000 }, () => 'y') }),
    ];
    // A WeakRef keeps its target alive until the current turn ends.
    await nextTurn();
    collectGarbage();
    expect(refs[0]?.deref()).toBeUndefined();
    const again = new WeakRef({ pages: [] });
    await nextTurn();
    collectGarbage();
    expect([refs[1]?.deref(), again.deref()]).toEqual([undefined, undefined]);
  });
});
