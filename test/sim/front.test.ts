import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSignedClient } from '../../src/http/client.js';
import { FRONT_PRIORITY } from '../../src/sim/front.js';
import { startSimulator } from '../../src/sim/server.js';
import { signedGet } from '../helpers/signed-get.js';

// A strict server counts a request when it arrives; the simulator, when its event loop gets to it. With the
// front (src/sim/front.ts) the simulator counts arrivals even while its own loop is held, as a full collection of
// a large heap holds it (docs/performance.md, "Many accounts").
const PATH = '/api/v2/account/all-account-balance';
// 1 a second at scale 1.9: one request in any 526 ms.
const SCALE = 1.9;

/** Holds this thread's event loop for `ms`, as a long garbage collection would. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe("the simulator's front door", () => {
  it('counts a request from when it arrived, not from when the held simulator got to it', async () => {
    const statuses: Record<string, number[]> = {};
    for (const front of [false, true]) {
      const sim = await startSimulator({
        seed: 'front',
        from: Date.UTC(2025, 0, 1),
        to: Date.UTC(2025, 1, 1),
        records: 5,
        rateScale: SCALE,
        front,
      });
      const client = createSignedClient({ baseUrl: sim.baseUrl, credentials: sim.credentials });
      const status = (p: Promise<unknown>) =>
        p.then(
          () => 200,
          (e: { httpStatus?: number }) => e.httpStatus ?? 0,
        );
      try {
        // As soon as the first is written, the simulator's loop (this thread's) is held 600 ms, before it can read it.
        const first = status(client.get(PATH, {}, { onSent: () => process.nextTick(() => hold(600)) }));
        const answered = await first;
        // The second leaves as soon as the first is answered: more than 526 ms after the first arrived, but a few
        // milliseconds after the held simulator got to it.
        const second = await status(client.get(PATH));
        statuses[front ? 'front' : 'none'] = [answered, second];
      } finally {
        await client.close();
        await sim.close();
      }
    }
    expect(statuses).toEqual({ none: [200, 429], front: [200, 200] });
  });

  it("runs its thread first on the CPU where the system allows it: as root on Linux, CI's case", async () => {
    // The niceness of each thread of this process: field 19 of /proc/self/task/<tid>/stat, after the command's
    // parentheses.
    const niceness = () =>
      readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]),
      );
    expect(niceness().filter((n) => n === FRONT_PRIORITY)).toEqual([]);
    const sim = await startSimulator({
      seed: 'front',
      from: Date.UTC(2025, 0, 1),
      to: Date.UTC(2025, 1, 1),
      records: 5,
      front: true,
    });
    try {
      const allowed = process.getuid?.() === 0;
      expect(niceness().filter((n) => n === FRONT_PRIORITY)).toEqual(allowed ? [FRONT_PRIORITY] : []);
    } finally {
      await sim.close();
    }
  });

  it('passes answers, errors and the address through', async () => {
    const sim = await startSimulator({
      seed: 'front',
      from: Date.UTC(2025, 0, 1),
      to: Date.UTC(2025, 1, 1),
      records: 5,
      front: true,
    });
    try {
      const ok = await signedGet(sim, PATH);
      expect([ok.status, (JSON.parse(ok.text) as { code: string }).code]).toEqual([200, '00000']);
      const wrong = await signedGet(
        { baseUrl: sim.baseUrl, credentials: { ...sim.credentials, secretKey: 'wrong' } },
        PATH,
      );
      expect([wrong.status, (JSON.parse(wrong.text) as { code: string }).code]).toEqual([400, '40009']);
      const missing = await fetch(`${sim.baseUrl}/api/v2/nothing`);
      expect(missing.status).toBe(404);
      expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await sim.close();
    }
  });
});
