import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGED_STREAMS } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess } from '../helpers/cli.js';
import { loaded, truthOfRun } from '../helpers/truth.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 6, 1);
let sim: Simulator;
let dir: string;

beforeAll(async () => {
  // 20% of requests fail in every way the simulator knows, so error paths and retries write their lines too.
  sim = await startSimulator({
    seed: 'secrets',
    from: FROM,
    to: TO,
    records: 1500,
    rateScale: 100,
    faults: 0.2,
    stallMs: 1500,
    pendingMs: 0,
  });
  dir = await mkdtemp(join(tmpdir(), 'lp-secrets-'));
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('under 20% faults of every kind', () => {
  it('lands exactly the truth, and no log line, warehouse byte or export holds the secret or passphrase', async () => {
    const db = join(dir, 'w.duckdb');
    const out = join(dir, 'exports');
    const env = {
      ...process.env,
      LEDGERPIPE_API_KEY: sim.credentials.apiKey,
      LEDGERPIPE_API_SECRET: sim.credentials.secretKey,
      LEDGERPIPE_API_PASSPHRASE: sim.credentials.passphrase,
    };
    const args = [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-07-01',
      '--base-url',
      sim.baseUrl,
      '--db',
      db,
      '--out',
      out,
      '--rate-scale',
      '100',
    ];
    // The refused run first, where the simulator's faults are the same whatever the runs after it ask.
    const wrong = await runCliProcess(args, {
      env: { ...env, LEDGERPIPE_API_PASSPHRASE: `${sim.credentials.passphrase}x` },
    });
    const pretty = await runCliProcess(args, { env });
    const json = await runCliProcess([...args, '--log-format', 'json'], { env });
    expect([pretty.status, json.status, wrong.status]).toEqual([0, 0, 3]);
    expect(Object.values(sim.stats.faults).every((n) => n > 0)).toBe(true);

    const warehouse = await openWarehouse(db);
    try {
      for (const stream of PAGED_STREAMS)
        expect(await loaded(warehouse.connection, stream), stream).toEqual(truthOfRun(sim.dataset, stream, FROM, TO));
      await warehouse.connection.run('CHECKPOINT');
    } finally {
      await warehouse.close();
    }

    const texts = [pretty.stdout, pretty.stderr, json.stdout, json.stderr, wrong.stdout, wrong.stderr];
    expect(
      json.stderr
        .split('\n')
        .filter((l) => l !== '')
        .every((l) => typeof JSON.parse(l).msg === 'string'),
    ).toBe(true);
    const files = [db, ...(await readdir(out)).map((f) => join(out, f))];
    const contents = await Promise.all(files.map((f) => readFile(f)));
    expect(contents.every((c) => c.length > 0)).toBe(true);
    for (const secret of [sim.credentials.secretKey, sim.credentials.passphrase]) {
      expect(texts.filter((t) => t.includes(secret))).toEqual([]);
      expect(files.filter((_, i) => (contents[i] as Buffer).includes(secret))).toEqual([]);
    }
  });
});
