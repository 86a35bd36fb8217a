import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createFaultPlan, FAULT_KINDS } from '../../src/sim/faults.js';
import { startSimulator } from '../../src/sim/server.js';

const range = { from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 1, 1), records: 20 };

/** What a client sees of one answer, named after the fault that would cause it. */
async function classify(url: string, dispatcher: Agent): Promise<string> {
  try {
    const res = await request(url, { dispatcher, signal: AbortSignal.timeout(150) });
    const text = await res.body.text();
    if (res.statusCode === 502)
      return text.startsWith('<html>') && res.headers['content-type'] === 'text/html' ? 'http502' : 'bad 502';
    if (res.statusCode === 500) return (JSON.parse(text) as { code: string }).code === '40015' ? 'http500' : 'bad 500';
    try {
      return (JSON.parse(text) as { code: string }).code === '00000' ? 'ok' : 'bad json';
    } catch {
      return res.statusCode === 200 && text.startsWith('{"code":"00000"') ? 'truncate' : 'bad truncate';
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((error as Error).name === 'TimeoutError') return 'stall';
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'reset';
    return `error ${code}`;
  }
}

async function outcomes(seed: string, faults: number, count: number): Promise<string[]> {
  const sim = await startSimulator({ seed, ...range, faults, stallMs: 2_000 });
  const dispatcher = new Agent();
  try {
    const seen: string[] = [];
    for (let i = 0; i < count; i++) seen.push(await classify(`${sim.baseUrl}/api/v2/public/time`, dispatcher));
    return seen;
  } finally {
    await dispatcher.close();
    await sim.close();
  }
}

describe('fault injection', () => {
  it('injects every kind: 500 with the live JSON body, 502 with HTML, reset, truncated JSON, stall', async () => {
    const seen = await outcomes('faults', 1, 30);
    expect(new Set(seen)).toEqual(new Set(FAULT_KINDS));
  });

  it('is seeded: the same seed fails the same requests the same way', async () => {
    const a = await outcomes('replay', 0.3, 40);
    const b = await outcomes('replay', 0.3, 40);
    expect(a).toEqual(b);
    const plan = createFaultPlan('replay', 0.3);
    const planned = Array.from({ length: 40 }, () => plan() ?? 'ok');
    expect(a).toEqual(planned);
  });

  it('fails about the share asked for', () => {
    const plan = createFaultPlan('share', 0.1);
    const failed = Array.from({ length: 10_000 }, () => plan()).filter((k) => k !== undefined).length;
    expect(failed).toBeGreaterThan(900);
    expect(failed).toBeLessThan(1100);
    expect(() => createFaultPlan('x', 1.5)).toThrow('--faults must be between 0 and 1, got 1.5');
  });
});
