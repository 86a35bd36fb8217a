import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess } from '../helpers/cli.js';
import { runTransforms } from '../../src/transform/runner.js';
import { loadRaw, rows } from '../helpers/raw.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-status-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const T = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;

/** A warehouse with one finished extract of withdrawals over [T, T + 1 day), the day read. */
async function oneRun(db: string): Promise<void> {
  const warehouse = await openWarehouse(db);
  try {
    const ts = (ms: number) => `make_timestamptz(${ms * 1000})`;
    await warehouse.connection.run(
      `INSERT INTO runs (run_id, account, command, range_from, range_to, started_at, finished_at, status, exit_code, message, stage)
       VALUES ('r1', 'default', 'extract', ${ts(T)}, ${ts(T + DAY)}, ${ts(T + 2 * DAY)}, ${ts(T + 2 * DAY + 1000)}, 'done', 0, NULL, 'extract')`,
    );
    await warehouse.connection.run(
      `INSERT INTO coverage (account, stream, partition, window_start, window_end, status, cursor, pages, rows, tie_pages, run_id, updated_at) VALUES ('default', 'withdrawals', '', ${ts(T)}, ${ts(T + DAY)}, 'done', NULL, 1, 0, 0, 'r1', ${ts(T + 2 * DAY)})`,
    );
    await warehouse.connection.run('CHECKPOINT');
  } finally {
    await warehouse.close();
  }
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describe('status', () => {
  it('on a path where there is no warehouse says so, exit 2, and creates nothing', async () => {
    const db = join(dir, 'typo', 'ledgerpipe.duckdb');
    const result = await runCliProcess(['status', '--db', db]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      '',
      `ledgerpipe: there is no warehouse at ${db}; check --db (run or extract creates one)\n`,
    ]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads a warehouse without writing it: it runs while another process holds it read-only, and the file is unchanged', async () => {
    const db = join(dir, 'w.duckdb');
    await oneRun(db);
    const before = await sha256(db);
    // A read-only holder lets only readers in: a status that opened the file for writing would exit 75.
    const holder = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
    try {
      const result = await runCliProcess(['status', '--db', db]);
      expect([result.status, result.stderr]).toEqual([0, '']);
      // The settings first, each at its default: no command of this warehouse gave one (docs/settings.md).
      const lines = result.stdout.split('\n');
      expect(lines.slice(0, 2)).toEqual([
        'settings (kept by the warehouse; a flag that differs changes them):',
        '  fiat            none (default)',
      ]);
      expect(lines.slice(lines.indexOf('account default'), lines.indexOf('account default') + 2)).toEqual([
        'account default',
        '  last run: extract, started 2025-01-03T00:00:00.000Z, finished 2025-01-03T00:00:01.000Z: done (exit 0)',
      ]);
      expect(result.stdout).toContain(
        '  withdrawals: 0 records\n    covered: 2025-01-01T00:00:00.000Z .. 2025-01-02T00:00:00.000Z\n',
      );
    } finally {
      holder.closeSync();
    }
    expect(await sha256(db)).toBe(before);
    expect((await readdir(dir)).sort()).toEqual(['w.duckdb']);
  });

  it('reads, and export writes, a warehouse transformed by a release without the helpers they use', async () => {
    const db = join(dir, 'w.duckdb');
    await oneRun(db);
    const warehouse = await openWarehouse(db);
    try {
      await loadRaw(warehouse, [
        {
          stream: 'withdrawals',
          key: '5',
          ts: T + 3_600_000,
          payload: {
            orderId: '5',
            tradeId: '=x',
            coin: 'USDT',
            type: 'withdraw',
            dest: 'on_chain',
            size: '2.5',
            fee: '-0.1',
            status: 'success',
            cTime: String(T + 3_600_000),
            uTime: String(T + 3_600_000),
          },
        },
      ]);
      await runTransforms(warehouse);
      // The helpers this release's status and export use, which the earlier release did not create; nor did it
      // record the version of what an opening makes sure of.
      await warehouse.connection.run(
        "DROP MACRO lp_total; DROP MACRO lp_csv_text; DELETE FROM model_versions WHERE name = 'opening'; CHECKPOINT",
      );
    } finally {
      await warehouse.close();
    }
    // Held read-only by another process: status must read it as it is, with helpers of its own session.
    const holder = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
    let status;
    try {
      status = await runCliProcess(['status', '--db', db]);
    } finally {
      holder.closeSync();
    }
    expect([status.status, status.stderr]).toEqual([0, '']);
    expect(status.stdout).toContain('USDT -2.6');
    const out = join(dir, 'out');
    const exported = await runCliProcess([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--from',
      '2025-01-01',
      '--to',
      '2025-01-02',
      '--format',
      'csv',
    ]);
    expect([exported.status, exported.stderr.split('\n').filter((l) => l.startsWith('ledgerpipe:'))]).toEqual([0, []]);
    const [header, ...lines] = (await readFile(join(out, 'ledger.csv'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => line.split(','));
    const cells = (name: string) => lines.map((line) => line[header?.indexOf(name) ?? -1]);
    // lp_csv_text of this release: the reference that would start a formula is neutralised.
    expect([cells('amount'), cells('reference')]).toEqual([
      ['-0.1', '-2.5'],
      ["'=x", "'=x"],
    ]);
  });

  it('upgrades a warehouse of an earlier release first, as every command does', async () => {
    const db = join(dir, 'w.duckdb');
    await oneRun(db);
    const instance = await DuckDBInstance.create(db);
    const c = await instance.connect();
    await c.run(
      "DELETE FROM schema_migrations WHERE name = 'warehouse/004_run_stages.sql'; ALTER TABLE runs DROP COLUMN stage; CHECKPOINT",
    );
    c.closeSync();
    instance.closeSync();
    const result = await runCliProcess(['status', '--db', db]);
    const lines = result.stdout.split('\n');
    expect([result.status, result.stderr, lines[lines.indexOf('account default') + 1]]).toEqual([
      0,
      '',
      '  last run: extract, started 2025-01-03T00:00:00.000Z, finished 2025-01-03T00:00:01.000Z: done (exit 0)',
    ]);
    const warehouse = await openWarehouse(db, { readOnly: true });
    try {
      expect(
        await rows(
          warehouse,
          "SELECT count(*) AS n FROM schema_migrations WHERE name = 'warehouse/004_run_stages.sql'",
        ),
      ).toEqual([{ n: '1' }]);
    } finally {
      await warehouse.close();
    }
  });
});
