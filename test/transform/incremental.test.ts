import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { DIST_SRC, runCliHere } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

// An incremental transform must give exactly the tables a full rebuild gives (docs/transform.md).
// A quarter of the simulator with faults: a year-end over its first half, then a nightly over the rest that
// reads new records, re-reads its look-back and lands withdrawals whose status moved. The nightly's transform is
// incremental; a copy of the warehouse is made again whole with --full; every file of both must be the same bytes.

const FROM = '2025-01-01';
const TO = '2025-04-01';
const FORMATS = 'csv,parquet,koinly,cointracking';
let dir: string;
let sim: Simulator;
let shift = 0;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-incremental-'));
  // The platform's clock says a week after the quarter: the nightlies read on to that present, not to this
  // machine's, and a look-back of three days from there holds no record (the data reach three days past TO).
  const offset = Date.now() - (Date.parse(TO) + 7 * 86_400_000);
  sim = await startSimulator({
    seed: 'incremental',
    from: Date.parse(FROM),
    to: Date.parse(TO),
    records: 600,
    rateScale: 100,
    faults: 0.05,
    stallMs: 300,
    pendingMs: 600_000,
    clock: () => Date.now() - offset + shift,
  });
  // DuckDB with a thread per core (vitest.config.ts sets one): the bytes compared must not depend on it.
  env = {
    ...process.env,
    LEDGERPIPE_THREADS: '',
    LEDGERPIPE_API_KEY: sim.credentials.apiKey,
    LEDGERPIPE_API_SECRET: sim.credentials.secretKey,
    LEDGERPIPE_API_PASSPHRASE: sim.credentials.passphrase,
  };
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const common = (db: string) => ['--base-url', sim.baseUrl, '--db', db, '--rate-scale', '100'];

/**
 * Every exported file of `out` by name (not the export set's own journal), the manifest without its time of writing.
 */
async function files(out: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const name of (await readdir(out)).filter((n) => !n.startsWith('.')).sort()) {
    const bytes = await readFile(join(out, name));
    found.set(
      name,
      name === 'manifest.json' ? Buffer.from(bytes.toString('utf8').replace(/"created_at": "[^"]+"/, '')) : bytes,
    );
  }
  return found;
}

async function exportOf(db: string, out: string): Promise<Map<string, Buffer>> {
  const result = await runCliHere(
    ['export', '--from', FROM, '--to', TO, '--format', FORMATS, '--out', out, '--db', db, '--quiet'],
    { env },
  );
  expect([result.status, result.stderr]).toEqual([0, '']);
  return files(out);
}

/**
 * Runs the transform in a process of its own and kills it (SIGKILL, no rollback run) at the `at`-th step it
 * times: the clock it is given is read at each step's start and end (the first two around typing again, in a
 * transaction of its own; the rest inside the transform's transaction).
 */
function killTransformAt(db: string, at: number): { signal: NodeJS.Signals | null; stderr: string; calls: number } {
  const dist = (path: string) => pathToFileURL(join(DIST_SRC, path)).href;
  const script = `
    const { openWarehouse } = await import(${JSON.stringify(dist('warehouse/warehouse.js'))});
    const { runTransforms } = await import(${JSON.stringify(dist('transform/runner.js'))});
    const warehouse = await openWarehouse(${JSON.stringify(db)});
    let calls = 0;
    await runTransforms(warehouse, { clock: () => { if (++calls === ${at}) process.kill(process.pid, 'SIGKILL'); return performance.now(); } });
    await warehouse.close();
    process.stdout.write(String(calls));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { signal: child.signal, stderr: child.stderr, calls: Number(child.stdout) };
}

/**
 * What the warehouse holds: the records loaded since the last transform (of the streams the ledger books), the ledger,
 * the withdrawals.
 */
async function state(db: string): Promise<{ pending: unknown; ledger: unknown; withdrawals: unknown }> {
  const warehouse = await openWarehouse(db);
  try {
    return {
      pending: (
        await rows(
          warehouse,
          "SELECT count(*) AS n FROM (SELECT DISTINCT account, stream, key FROM pending_changes WHERE stream NOT IN ('p2p_advertisements', 'account_balances', 'asset_balances'))",
        )
      )[0]?.['n'],
      ledger: await rows(
        warehouse,
        "SELECT count(*) AS n, lp_total(amount) AS total, count(*) FILTER (WHERE source = 'withdrawals') AS withdrawals FROM ledger",
      ),
      withdrawals: await rows(warehouse, 'SELECT status, count(*) AS n FROM withdrawals GROUP BY ALL ORDER BY ALL'),
    };
  } finally {
    await warehouse.close();
  }
}

describe('the incremental transform', () => {
  it(
    'gives the files of a full rebuild after nightlies with faults, new records and status changes, and after killed transforms',
    { timeout: 180_000 },
    async () => {
      const db = join(dir, 'w.duckdb');
      const yearEnd = await runCliHere(
        [
          'run',
          'year-end',
          '--from',
          FROM,
          '--to',
          '2025-03-01',
          '--out',
          join(dir, 'year-end'),
          ...common(db),
          '--quiet',
        ],
        { env },
      );
      expect([yearEnd.status, yearEnd.stderr]).toEqual([0, '']);
      // The nightly's extraction alone, as a user's pipeline file: its transform is run (and killed) apart.
      const extractOnly = join(dir, 'nightly-extract.json');
      await writeFile(
        extractOnly,
        JSON.stringify({
          name: 'nightly-extract',
          range: { kind: 'since-coverage', lookBackDays: 3, refreshPendingWithdrawals: true },
          streams: 'all',
          stages: ['extract'],
        }),
      );
      const nightly = async () => {
        const run = await runCliHere(['run', extractOnly, ...common(db), '--quiet'], { env });
        expect([run.status, run.stderr]).toEqual([0, '']);
      };
      const transform = async () => {
        const run = await runCliHere(['transform', ...common(db)], { env });
        expect(run.status, run.stderr).toBe(0);
        const update =
          /transform, (\d+) records loaded since the last, (\d+) rebooked, ledger rows (\d+) out and (\d+) in/.exec(
            run.stderr,
          );
        expect(update, run.stderr).not.toBeNull();
        return update?.slice(1).map(Number) as number[];
      };
      // The withdrawals of the last day, pending until the simulator's clock moves on.
      const movers = sim.dataset.streams.withdrawals[0]!.records.filter((r) => r.before !== undefined);
      const ids = movers.map((m) => `'${m.id}'`).join(', ');
      const moversNow = async () => {
        const warehouse = await openWarehouse(db);
        try {
          return {
            status: await rows(
              warehouse,
              `SELECT order_id, status FROM withdrawals WHERE order_id IN (${ids}) ORDER BY order_id`,
            ),
            booked: await rows(
              warehouse,
              `SELECT DISTINCT source_id FROM ledger WHERE source = 'withdrawals' AND source_id IN (${ids}) ORDER BY 1`,
            ),
          };
        } finally {
          await warehouse.close();
        }
      };

      // March: new records, the movers among them, pending.
      await nightly();
      const [changed, , out, inserted] = await transform();
      expect(changed).toBeGreaterThan(0);
      // The look-back's records, booked by the year-end, had their rows replaced; March's added more.
      expect(out).toBeGreaterThan(0);
      expect(inserted).toBeGreaterThan(out as number);
      const sorted = (list: { order_id: string; status: unknown }[]) =>
        list.sort((a, b) => a.order_id.localeCompare(b.order_id));
      expect(await moversNow()).toEqual({
        status: sorted(movers.map((m) => ({ order_id: m.id, status: 'pending' }))),
        booked: [],
      });

      // The movers' final statuses, and the look-back read again, with the transform killed along the way.
      shift = 601_000;
      await nightly();
      expect(
        sim.stats.faults.http500 +
          sim.stats.faults.http502 +
          sim.stats.faults.reset +
          sim.stats.faults.truncate +
          sim.stats.faults.stall,
      ).toBeGreaterThan(0);
      const loaded = await state(db);
      expect(Number(loaded.pending)).toBeGreaterThan(0);
      // Killed after its first step, after the changed records' ledger rows are made, after they replaced the old
      // ones, and after its last file: each time the warehouse is as the extraction left it. The steps are counted
      // on a copy the transform runs through: from the end, the four completeness files (8 clock reads) follow the
      // three ledger files (6), which follow the replacement (2), which follows the four checks (8) and the ledger
      // made of the changed records.
      const counted = join(dir, 'counted.duckdb');
      await copyFile(db, counted);
      const { signal, calls } = killTransformAt(counted, Number.POSITIVE_INFINITY);
      expect([signal, calls > 24]).toEqual([null, true]);
      for (const at of [2, calls - 24, calls - 14, calls]) {
        const killed = killTransformAt(db, at);
        expect([killed.signal, killed.stderr, killed.calls]).toEqual(['SIGKILL', '', 0]);
        expect(await state(db)).toEqual(loaded);
      }
      const [again, , replaced] = await transform();
      expect(again).toBe(Number(loaded.pending));
      // The look-back's records were booked already: their rows were replaced.
      expect(replaced).toBeGreaterThan(0);
      expect((await state(db)).pending).toBe('0');
      expect(await moversNow()).toEqual({
        status: sorted(movers.map((m) => ({ order_id: m.id, status: m.record['status'] }))),
        booked: movers
          .filter((m) => m.record['status'] === 'success')
          .map((m) => ({ source_id: m.id }))
          .sort((a, b) => a.source_id.localeCompare(b.source_id)),
      });

      // A night of fills alone: the models made from raw_records of other streams are left as they are.
      const fillsOnly = join(dir, 'nightly-fills.json');
      await writeFile(
        fillsOnly,
        JSON.stringify({
          name: 'nightly-fills',
          range: { kind: 'since-coverage', lookBackDays: 3 },
          streams: ['futures_fills'],
          stages: ['extract'],
        }),
      );
      const fillsNight = await runCliHere(['run', fillsOnly, ...common(db), '--quiet'], { env });
      expect([fillsNight.status, fillsNight.stderr]).toEqual([0, '']);
      const fillsTransform = await runCliHere(['transform', '--verbose', ...common(db)], { env });
      expect(fillsTransform.status, fillsTransform.stderr).toBe(0);
      expect(fillsTransform.stderr).toMatch(/^transform, \d+ records loaded since the last.*: \d+ ms$/m);
      // --verbose adds the time of each step.
      const line = fillsTransform.stderr.split('\n').find((l) => l.startsWith('debug: transform steps: ')) ?? '';
      // A night of fills runs neither model made from raw_records, nor the files a whole transform made the same (the
      // views, the catalog): this one, which loaded nothing new, runs nothing but the check of the typed tables.
      expect([
        line.includes('models/p2p_advertisements.sql'),
        line.includes('models/account_balances.sql'),
        line.includes('generated/models.sql'),
        line.includes('seeds/00_seeds.sql'),
      ]).toEqual([false, false, false, false]);
      expect(line).toMatch(/^debug: transform steps: typed tables \d+ ms$/);

      const copy = join(dir, 'full.duckdb');
      await copyFile(db, copy);
      const full = await runCliHere(['transform', '--full', ...common(copy)], { env });
      expect(full.status, full.stderr).toBe(0);
      expect(full.stderr).toContain('transform, whole (asked for (--full))');

      const incremental = await exportOf(db, join(dir, 'incremental'));
      const whole = await exportOf(copy, join(dir, 'full'));
      const names = [
        'cointracking.csv',
        'form8949.csv',
        'koinly.csv',
        'manifest.json',
        ...[
          'deposits',
          'disposals',
          'futures_fills',
          'ledger',
          'ledger_valued',
          'margin_records',
          'withdrawals',
          'year_summary',
        ].flatMap((t) => [`${t}.csv`, `${t}.parquet`]),
      ];
      expect([...incremental.keys()]).toEqual(names.sort());
      expect([...whole.keys()]).toEqual(names);
      for (const [name, bytes] of incremental) expect(bytes.equals(whole.get(name) as Buffer), name).toBe(true);
      // The models no file exports, made from raw_records only by a transform that loaded records of their stream.
      const unexported = async (path: string) => {
        const warehouse = await openWarehouse(path);
        try {
          return {
            adverts: await rows(warehouse, 'SELECT * FROM p2p_advertisements ORDER BY ALL'),
            balances: await rows(warehouse, 'SELECT * FROM account_balances ORDER BY ALL'),
          };
        } finally {
          await warehouse.close();
        }
      };
      const models = await unexported(db);
      expect([models.adverts.length > 0, models.balances.length > 0]).toEqual([true, true]);
      expect(models).toEqual(await unexported(copy));
    },
  );
});
