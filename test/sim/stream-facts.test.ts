import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagedFacts, partFacts } from '../../src/sim/endpoints/stream-facts.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { STREAMS } from '../../src/streams/index.js';
import { readFor, type AccountMode, type PartitionDef, type SnapshotPart } from '../../src/streams/stream.js';
import { signedGet } from '../helpers/signed-get.js';

/**
 * The simulator's endpoints take their path, rate, window and page from the streams' definitions
 * (src/sim/endpoints/stream-facts.ts): every endpoint a stream reads, for each kind of account, is one it serves.
 */
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 3, 1);
const sims = new Map<AccountMode, Simulator>();

beforeAll(async () => {
  for (const mode of ['classic', 'uta'] as const)
    sims.set(
      mode,
      await startSimulator({ seed: 'facts', from: FROM, to: TO, records: 200, accountMode: mode, pendingMs: 0 }),
    );
});
afterAll(async () => {
  for (const sim of sims.values()) await sim.close();
});

/** The paths a stream reads for an account of `mode`: its own and its partitions', or its parts'. */
function pathsRead(mode: AccountMode): string[] {
  return STREAMS.flatMap((s) => {
    if (s.kind === 'snapshot')
      return (s.parts as readonly SnapshotPart[]).filter((p) => readFor(p, mode)).map((p) => p.path);
    if (!readFor(s, mode)) return [];
    return [
      s.path,
      ...(s.partitions as readonly PartitionDef[]).flatMap((p) => (p.endpoint === undefined ? [] : [p.endpoint.path])),
    ];
  });
}

describe("the simulator's endpoints", () => {
  it("are the streams' own: path, rate, window and page", () => {
    for (const s of STREAMS) {
      if (s.kind !== 'paged') continue;
      expect(pagedFacts(s.name), s.name).toEqual({
        path: s.path,
        rate: s.ratePerSecond,
        windowDays: s.maxWindowDays,
        pageMax: s.pageLimit,
      });
    }
    expect(pagedFacts('uta_financial_records', 'funding')).toMatchObject({
      path: '/api/v3/account/funding-financial-records',
      rate: 10,
    });
    expect(partFacts('asset_balances', 'funding', 'uta')).toEqual({ path: '/api/v3/account/funding-assets', rate: 20 });
    expect(() => partFacts('loans', 'no_such_part')).toThrow(/no part/);
  });

  it('serve every endpoint a stream reads, for each kind of account', async () => {
    for (const [mode, sim] of sims) {
      const paths = pathsRead(mode);
      expect(paths.length, mode).toBeGreaterThan(5);
      for (const path of new Set(paths)) {
        const answer = await signedGet(sim, path, {});
        expect(answer.status, `${mode} ${path}: ${answer.text}`).not.toBe(404);
      }
    }
  });
});
