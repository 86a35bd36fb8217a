import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere } from '../helpers/cli.js';

const good = {
  orderId: '1735700000000000001',
  tradeId: '0xabc',
  coin: 'USDT',
  clientOid: '',
  type: 'withdraw',
  dest: 'on_chain',
  size: '10.00000000',
  fee: '-1.00000000',
  status: 'success',
  fromAddress: '',
  toAddress: 'T1',
  chain: 'trc20',
  confirm: '12',
  tag: '',
  cTime: '1735700000000',
  uTime: '1735700060000',
};
const drifted = { ...good, orderId: '1735700000000000002', cTime: '1735700000001', network: 'TRC20' };
const broken = { ...good, orderId: '1735700000000000003', cTime: '1735700000002', size: '12e3' };

let server: Server;
let baseUrl: string;
let dir: string;

/** A fake platform at the HTTP edge: public time and one page of withdrawals, one of them malformed. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-quarantine-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body =
      url.pathname === '/api/v2/public/time'
        ? { code: '00000', msg: 'success', requestTime: Date.now(), data: { serverTime: String(Date.now()) } }
        : url.pathname === '/api/v2/spot/wallet/withdrawal-records'
          ? { code: '00000', msg: 'success', requestTime: Date.now(), data: [broken, drifted, good] }
          : { code: '40404', msg: 'Request URL NOT FOUND', data: null };
    res.writeHead(body.code === '40404' ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('records that fail their schema', () => {
  it('go to quarantine, unknown fields are kept and recorded once, and the run exits 4 naming the table', async () => {
    const db = join(dir, 'q.duckdb');
    const env = {
      ...process.env,
      LEDGERPIPE_API_KEY: 'k',
      LEDGERPIPE_API_SECRET: 's3cret-value',
      LEDGERPIPE_API_PASSPHRASE: 'pass-value',
    };
    const result = await runCliHere(
      [
        'extract',
        '--from',
        '2025-01-01',
        '--to',
        '2025-02-01',
        '--streams',
        'withdrawals',
        '--base-url',
        baseUrl,
        '--db',
        db,
        '--quiet',
      ],
      { env },
    );
    expect(result.status).toBe(4);
    expect(result.stderr).toBe(
      'ledgerpipe: records that could not be loaded as they came were set aside in the quarantine table, each with its reason (withdrawals: 1); see them with: ledgerpipe query "SELECT stream, key, error FROM quarantine"\n',
    );
    const warehouse = await openWarehouse(db);
    try {
      const raw = await warehouse.connection.runAndReadAll(
        'SELECT key, payload::VARCHAR AS payload FROM raw_records ORDER BY key',
      );
      expect(raw.getRowObjectsJS()).toEqual([
        { key: good.orderId, payload: JSON.stringify(good) },
        { key: drifted.orderId, payload: JSON.stringify(drifted) },
      ]);
      const drift = await warehouse.connection.runAndReadAll('SELECT stream, field, kind, sample FROM schema_drift');
      expect(drift.getRowObjectsJS()).toEqual([
        { stream: 'withdrawals', field: 'network', kind: 'unknown', sample: '"TRC20"' },
      ]);
      const quarantine = await warehouse.connection.runAndReadAll('SELECT stream, key, payload, error FROM quarantine');
      expect(quarantine.getRowObjectsJS()).toEqual([
        {
          stream: 'withdrawals',
          key: broken.orderId,
          payload: JSON.stringify(broken),
          error: 'size: not a plain decimal string',
        },
      ]);
      const runs = await warehouse.connection.runAndReadAll('SELECT command, status, exit_code, records FROM runs');
      expect(runs.getRowObjectsJS()).toEqual([{ command: 'extract', status: 'incomplete', exit_code: 4, records: 2n }]);
      // The secret and passphrase are nowhere in the warehouse.
      const text = await warehouse.connection.runAndReadAll(
        "SELECT count(*)::INTEGER AS n FROM (SELECT payload::VARCHAR AS t FROM raw_records UNION ALL SELECT message FROM runs) WHERE t LIKE '%s3cret-value%' OR t LIKE '%pass-value%'",
      );
      expect(text.getRowObjectsJS()).toEqual([{ n: 0 }]);
    } finally {
      await warehouse.close();
    }
  });
});
