import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAGED_STREAMS } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { CLI, runCliHere, runCliProcess } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';
import { loaded, truthOfRun } from '../helpers/truth.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 3, 1);
const DAY = 86_400_000;
let dir: string;
const sims: Simulator[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-pipelines-'));
});
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function sim(
  seed: string,
  extra: Parameters<typeof startSimulator>[0] extends infer O ? Partial<O> : never = {},
): Promise<Simulator> {
  const s = await startSimulator({ seed, from: FROM, to: TO, records: 400, rateScale: 100, pendingMs: 0, ...extra });
  sims.push(s);
  return s;
}

const envFor = (s: Simulator, prefix = 'LEDGERPIPE_API') => ({
  [`${prefix}_KEY`]: s.credentials.apiKey,
  [`${prefix}_SECRET`]: s.credentials.secretKey,
  [`${prefix}_PASSPHRASE`]: s.credentials.passphrase,
});

describe('profiles', () => {
  it('two profiles against two simulators at once land both accounts, each exactly', async () => {
    const [a, b] = [await sim('profile-a'), await sim('profile-b')];
    const config = join(dir, 'ledgerpipe.config.json');
    await writeFile(
      config,
      JSON.stringify({
        // The fiat of every run of this config: year-end values in EUR without --fiat.
        fiat: 'EUR',
        accounts: [
          { name: 'alice', baseUrl: a.baseUrl, env: { key: 'A_KEY', secret: 'A_SECRET', passphrase: 'A_PASSPHRASE' } },
          { name: 'bob', baseUrl: b.baseUrl, env: { key: 'B_KEY', secret: 'B_SECRET', passphrase: 'B_PASSPHRASE' } },
        ],
      }),
    );
    const db = join(dir, 'w.duckdb');
    const result = await runCliHere(
      [
        'run',
        'year-end',
        '--from',
        '2025-01-01',
        '--to',
        '2025-04-01',
        '--config',
        config,
        '--db',
        db,
        '--out',
        join(dir, 'out'),
        '--rate-scale',
        '100',
        '--quiet',
      ],
      {
        env: { ...process.env, ...envFor(a, 'A'), ...envFor(b, 'B') },
      },
    );
    expect([result.status, result.stderr]).toEqual([0, '']);
    // year-end writes the accountant's set: the tables, both tax tools' files and the report, valued in the config's
    // fiat.
    const out = join(dir, 'out');
    expect((await readdir(out)).filter((f) => !f.startsWith('.')).sort()).toEqual(
      [
        'accounts',
        'cointracking.csv',
        'form8949.csv',
        'koinly.csv',
        'manifest.json',
        'report.html',
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
      ].sort(),
    );
    expect((await readFile(join(out, 'year_summary.csv'), 'utf8')).split('\n')[0]).toBe(
      'account,asset,tax_class,amount,value_usdt,value_eur,year,entries,unpriced_entries',
    );
    expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')).fiat).toBe('EUR');
    // Both ran at the same time: each simulator saw its own key only.
    // No refusal: EUR, whose pairs the platform does not list (40034), is the fiat here, valued at 1 and never asked;
    // but the account's kind, asked first (a classic key: 40084, docs/unified-accounts.md).
    expect((a.stats.byStatus[400] ?? 0) - (a.stats.byPath['/api/v3/account/settings'] ?? 0)).toBe(0);
    const warehouse = await openWarehouse(db);
    try {
      for (const [account, s] of [
        ['alice', a],
        ['bob', b],
      ] as const) {
        for (const stream of PAGED_STREAMS)
          expect(await loaded(warehouse.connection, stream, account), `${account} ${stream}`).toEqual(
            truthOfRun(s.dataset, stream, FROM, TO),
          );
      }
      expect(await rows(warehouse, 'SELECT DISTINCT account FROM ledger ORDER BY 1')).toEqual([
        { account: 'alice' },
        { account: 'bob' },
      ]);
    } finally {
      await warehouse.close();
    }
    const one = await runCliHere(
      ['run', 'year-end', '--year', '2025', '--config', config, '--profile', 'carol', '--db', db, '--quiet'],
      { env: process.env },
    );
    expect([one.status, one.stderr]).toEqual([2, 'ledgerpipe: no profile named carol; the config has alice, bob\n']);
  });
});

describe('nightly', () => {
  it('after year-end reads only the new range and the look-back, and lands a withdrawal whose status moved', async () => {
    let shift = 0;
    const requests: { path: string; start: number }[] = [];
    // The platform's clock says a day after the quarter: the nightly reads on to that present, not to this machine's.
    const offset = Date.now() - (TO + DAY);
    const s = await sim('nightly', {
      pendingMs: 600_000,
      clock: () => Date.now() - offset + shift,
      onRequest: ({ path, query }) => {
        if (query.has('startTime')) requests.push({ path, start: Number(query.get('startTime')) });
      },
    });
    const db = join(dir, 'w.duckdb');
    const common = ['--base-url', s.baseUrl, '--db', db, '--out', join(dir, 'out'), '--rate-scale', '100', '--quiet'];
    const env = { ...process.env, ...envFor(s) };
    expect(
      (await runCliHere(['run', 'year-end', '--from', '2025-01-01', '--to', '2025-04-01', ...common], { env })).status,
    ).toBe(0);
    const movers = s.dataset.streams.withdrawals[0]!.records.filter((r) => r.before !== undefined);
    const statusOf = async () => {
      const warehouse = await openWarehouse(db);
      try {
        return {
          withdrawals: await rows(
            warehouse,
            `SELECT order_id, status FROM withdrawals WHERE order_id IN (${movers.map((m) => `'${m.id}'`).join(', ')}) ORDER BY order_id`,
          ),
          ledger: await rows(
            warehouse,
            `SELECT source_id, category FROM ledger WHERE source = 'withdrawals' AND source_id IN (${movers.map((m) => `'${m.id}'`).join(', ')}) ORDER BY entry_id`,
          ),
        };
      } finally {
        await warehouse.close();
      }
    };
    const before = await statusOf();
    expect(before.withdrawals.map((w) => w['status'])).toEqual(['pending', 'pending', 'pending']);
    expect(before.ledger).toEqual([]);

    shift = 601_000; // the simulator's withdrawals move to their final status
    requests.length = 0;
    const nightly = await runCliHere(['run', 'nightly', ...common], { env });
    expect([nightly.status, nightly.stderr]).toEqual([0, '']);
    const lookBackStart = TO - 3 * DAY;
    const WITHDRAWALS = '/api/v2/spot/wallet/withdrawal-records';
    const DEPOSITS = '/api/v2/spot/wallet/deposit-records';
    const others = requests.filter((r) => r.path !== WITHDRAWALS && r.path !== DEPOSITS);
    expect(others.length).toBeGreaterThan(0);
    expect(Math.min(...others.map((r) => r.start))).toBe(lookBackStart);
    // Before the look-back only the withdrawals and deposits windows that hold records still pending are read again.
    const pendingForever = s.dataset.streams.withdrawals[0]!.records.filter(
      (r) => r.ts >= FROM && r.ts < lookBackStart && ['pending', 'pending_review'].includes(String(r.record['status'])),
    );
    const pendingDeposits = s.dataset.streams.deposits[0]!.records.filter(
      (r) => r.ts >= FROM && r.ts < lookBackStart && r.record['status'] === 'pending',
    );
    expect([pendingForever.length > 0, pendingDeposits.length > 0]).toEqual([true, true]);
    // Their windows start at the account's opening, five days before FROM: both carry lots, read back to it
    // (docs/history.md).
    const opening = FROM - 5 * DAY;
    expect(
      [...new Set(requests.filter((r) => r.start < lookBackStart).map((r) => `${r.path} ${r.start}`))].sort(),
    ).toEqual([`${DEPOSITS} ${opening}`, `${WITHDRAWALS} ${opening}`]);

    const after = await statusOf();
    const final = new Map(movers.map((m) => [m.id, m.record['status']]));
    expect(after.withdrawals).toEqual(
      before.withdrawals.map((w) => ({ order_id: w['order_id'], status: final.get(w['order_id'] as string) })),
    );
    const succeeded = movers
      .filter((m) => m.record['status'] === 'success')
      .map((m) => m.id)
      .sort();
    expect([...new Set(after.ledger.map((l) => l['source_id']))].sort()).toEqual(succeeded);
    expect(after.ledger.filter((l) => l['category'] === 'withdrawal')).toHaveLength(2);
  });
});

describe('locking', () => {
  it('a second run on the same warehouse exits 75 at once naming the holder; a killed run leaves no lock behind', async () => {
    const s = await startSimulator({ seed: 'lock', from: FROM, to: TO, records: 400, pendingMs: 0 });
    sims.push(s);
    const db = join(dir, 'w.duckdb');
    const env = { ...process.env, ...envFor(s) };
    // At the real rate limits a quarter takes seconds: long enough to be the holder.
    const holder = spawn(
      process.execPath,
      [
        CLI,
        'run',
        'year-end',
        '--from',
        '2025-01-01',
        '--to',
        '2025-04-01',
        '--base-url',
        s.baseUrl,
        '--db',
        db,
        '--out',
        join(dir, 'out'),
        '--quiet',
      ],
      { env, stdio: 'ignore' },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const started = Date.now();
      const second = await runCliProcess(
        [
          'run',
          'year-end',
          '--from',
          '2025-01-01',
          '--to',
          '2025-04-01',
          '--base-url',
          s.baseUrl,
          '--db',
          db,
          '--quiet',
        ],
        { env },
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect([second.status, second.stderr]).toEqual([
        75,
        `ledgerpipe: ${db} is in use by another process (PID ${holder.pid}); wait for it to finish, then try again\n`,
      ]);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    const status = await runCliProcess(['status', '--db', db]);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('still running or killed');
  });
});
