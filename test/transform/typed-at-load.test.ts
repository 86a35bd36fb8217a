import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, simEnv } from '../helpers/cli.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';
import { createRawWriter } from '../../src/load/raw-writer.js';

let dir: string;
let sim: Simulator;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-typed-'));
  db = join(dir, 'w.duckdb');
  sim = await startSimulator({
    seed: 'typed',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 2, 1),
    records: 400,
    rateScale: 100,
    pendingMs: 0,
  });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

// Two streams of the account, the spot records not among them: the gains cannot be complete, and --no-history says
// the files are written knowing it (docs/history.md), instead of exit 4.
const exportArgs = (out: string) => [
  'export',
  '--from',
  '2025-01-01',
  '--to',
  '2025-03-01',
  '--db',
  db,
  '--out',
  out,
  '--format',
  'csv',
  '--no-history',
];

describe('typed at load', () => {
  it('types each fill and margin record as it is loaded, exactly as typing it again from raw_records does', async () => {
    const env = simEnv(sim.credentials);
    const extract = await runCliHere(
      [
        'extract',
        '--from',
        '2025-01-01',
        '--to',
        '2025-03-01',
        '--base-url',
        sim.baseUrl,
        '--db',
        db,
        '--rate-scale',
        '100',
        '--streams',
        'futures_fills,margin_records',
        '--quiet',
      ],
      { env },
    );
    expect([extract.status, extract.stderr]).toEqual([0, '']);
    // Loaded and typed in one go: one typed row per raw fill, before any transform.
    let warehouse = await openWarehouse(db);
    try {
      for (const stream of ['futures_fills', 'margin_records']) {
        const sql = `SELECT (SELECT count(*) FROM raw_records WHERE stream = '${stream}') = (SELECT count(*) FROM typed_${stream}) AND (SELECT count(*) FROM typed_${stream}) > 100 AS same`;
        expect(await rows(warehouse, sql), stream).toEqual([{ same: 'true' }]);
      }
    } finally {
      await warehouse.close();
    }
    const transform = await runCliHere(['transform', '--db', db]);
    expect(transform.status, transform.stderr).toBe(0);
    expect(transform.stderr).not.toContain('typed again');
    expect((await runCliHere(exportArgs(join(dir, 'loaded')))).status).toBe(0);

    // Another release's typing (its version gone) with a typed row gone wrong: the transform types every fill again.
    warehouse = await openWarehouse(db);
    try {
      await warehouse.connection.run("DELETE FROM model_versions WHERE name = 'typed_at_load'");
      await warehouse.connection.run('UPDATE typed_futures_fills SET price = 0');
      await warehouse.connection.run('UPDATE typed_margin_records SET amount = 0');
    } finally {
      await warehouse.close();
    }
    const again = await runCliHere(['transform', '--db', db]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /typed again: margin_records, futures_fills, withdrawals, deposits, futures_tax_records, spot_tax_records, p2p_tax_records/,
    );
    expect((await runCliHere(exportArgs(join(dir, 'retyped')))).status).toBe(0);
    for (const file of ['futures_fills.csv', 'margin_records.csv', 'ledger.csv']) {
      expect(await readFile(join(dir, 'retyped', file), 'utf8'), file).toBe(
        await readFile(join(dir, 'loaded', file), 'utf8'),
      );
    }
  }, 120_000);

  it('replaces the typed row of a record loaded again, in a batch of new and earlier records or alone', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    try {
      const withdrawal = (orderId: string, status: string) => ({
        stream: 'withdrawals',
        key: orderId,
        ts: Date.UTC(2025, 0, 2),
        payload: {
          orderId,
          coin: 'USDT',
          type: 'withdraw',
          dest: 'on_chain',
          size: '12.5',
          fee: '1',
          status,
          cTime: String(Date.UTC(2025, 0, 2)),
          uTime: String(Date.UTC(2025, 0, 2)),
        },
      });
      await loadRaw(warehouse, [withdrawal('1', 'pending'), withdrawal('2', 'pending')]);
      // One page: a new record, an earlier one changed, and the same record twice (the last one seen wins).
      const writer = await createRawWriter(warehouse, {
        account: 'default',
        runId: 'again',
        clock: () => Date.UTC(2026, 0, 3),
      });
      const records = [withdrawal('3', 'pending'), withdrawal('1', 'fail'), withdrawal('1', 'success')].map((r) => ({
        key: r.key,
        ts: r.ts,
        payload: JSON.stringify(r.payload),
      }));
      await writer.commit({
        stream: 'withdrawals',
        partition: '',
        records,
        cursor: null,
        done: true,
        tie: false,
        drift: [],
        quarantine: [],
      });
      // A page of earlier records alone: a changed one and an unchanged one.
      await loadRaw(warehouse, [withdrawal('2', 'success'), withdrawal('3', 'pending')]);
      expect(
        await rows(
          warehouse,
          'SELECT order_id, status, lp_decimal_text(size) AS size FROM typed_withdrawals ORDER BY order_id',
        ),
      ).toEqual([
        { order_id: '1', status: 'success', size: '12.5' },
        { order_id: '2', status: 'success', size: '12.5' },
        { order_id: '3', status: 'pending', size: '12.5' },
      ]);
      expect(await rows(warehouse, "SELECT count(*) AS n FROM raw_records WHERE stream = 'withdrawals'")).toEqual([
        { n: '3' },
      ]);
    } finally {
      await dispose();
    }
  });
});
