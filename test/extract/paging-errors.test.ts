import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli.js';

const DAY = Date.UTC(2025, 0, 1);
let server: Server;
let baseUrl: string;
let dir: string;

function fill(i: number) {
  return {
    tradeId: String(1000 + i),
    symbol: 'BTCUSDT',
    orderId: '1',
    price: '1',
    baseVolume: '1',
    quoteVolume: '1',
    feeDetail: [],
    side: 'buy',
    profit: '0',
    enterPointSource: 'API',
    tradeSide: 'open',
    posMode: 'hedge_mode',
    tradeScope: 'taker',
    cTime: String(DAY + i),
  };
}

/** A broken platform: every fill-history page is full and names the same cursor. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-paging-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // A classic key, as the platform answers it on the unified accounts' settings (docs/unified-accounts.md).
    if (url.pathname === '/api/v3/account/settings') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: '40084', msg: 'Classic Account mode', requestTime: Date.now(), data: null }));
      return;
    }
    const data =
      url.pathname === '/api/v2/public/time'
        ? { serverTime: String(Date.now()) }
        : { fillList: Array.from({ length: 100 }, (_, i) => fill(100 - i)), endId: '1050' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: '00000', msg: 'success', requestTime: Date.now(), data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('a cursor that does not move', () => {
  it('stops its stream loudly instead of looping, keeping the first pages: the range is a gap, exit 4', async () => {
    const env = { ...process.env, LEDGERPIPE_API_KEY: 'k', LEDGERPIPE_API_SECRET: 's', LEDGERPIPE_API_PASSPHRASE: 'p' };
    const db = join(dir, 'p.duckdb');
    const result = await runCliHere(
      [
        'extract',
        '--from',
        '2025-01-01',
        '--to',
        '2025-01-02',
        '--streams',
        'futures_fills',
        '--base-url',
        baseUrl,
        '--db',
        db,
      ],
      { env },
    );
    expect(result.status).toBe(4);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'ledgerpipe: futures_fills could not be read and its range is a gap: futures_fills: the paging cursor did not move forward (1050 after 1050); stopping rather than loop — report this; run again to fill it',
    );
  });
});
