import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract } from '../../src/extract/extractor.js';
import { createSignedClient } from '../../src/http/client.js';
import { withdrawals } from '../../src/streams/withdrawals.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

const DAY = 86_400_000;
const FROM = Date.UTC(2025, 0, 1);
const TO = FROM + 8 * DAY;
/** One withdrawal a day, at noon. */
const RECORDS = Array.from({ length: 8 }, (_, i) => {
  const ts = FROM + i * DAY + DAY / 2;
  return { orderId: String(1000 + i), coin: 'USDT', size: '1', status: 'success', cTime: String(ts) };
});
let server: Server;
let baseUrl: string;
const windows: string[] = [];

/** A platform that refuses any window wider than two days with 40303, as the live one does past 20,000 records. */
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const start = Number(url.searchParams.get('startTime'));
    const end = Number(url.searchParams.get('endTime'));
    let body: unknown = { code: '00000', msg: 'success', data: { serverTime: String(Date.now()) } };
    // A classic key, as the platform answers it on the unified accounts' settings (docs/unified-accounts.md).
    if (url.pathname === '/api/v3/account/settings') body = { code: '40084', msg: 'Classic Account mode', data: null };
    else if (url.pathname !== '/api/v2/public/time') {
      windows.push(`${(start - FROM) / DAY}-${(end + 1 - FROM) / DAY}`);
      body =
        end - start > 2 * DAY
          ? { code: '40303', msg: 'Can only query up to 20,000 data', data: null }
          : {
              code: '00000',
              msg: 'success',
              data: RECORDS.filter((r) => Number(r.cTime) >= start && Number(r.cTime) <= end).reverse(),
            };
    }
    res.writeHead(url.pathname === '/api/v2/public/time' || (body as { code: string }).code === '00000' ? 200 : 400, {
      'content-type': 'application/json',
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a window the server finds too full (40303)', () => {
  it('is read in halves until it fits, and the endpoint keeps its window', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    const client = createSignedClient({ baseUrl, credentials: { apiKey: 'k', secretKey: 's', passphrase: 'p' } });
    try {
      await extract({
        warehouse,
        client,
        account: 'default',
        runId: 'r',
        streams: [withdrawals],
        from: FROM,
        to: TO,
        rateScale: 100,
        concurrency: 1,
      });
      // Halves join the back of the queue (runPool): each level is read before the next.
      expect(windows).toEqual(['0-8', '0-4', '4-8', '0-2', '2-4', '4-6', '6-8']);
      expect((await rows(warehouse, 'SELECT key FROM raw_records ORDER BY key')).map((r) => r['key'])).toEqual(
        RECORDS.map((r) => r.orderId),
      );
      expect(await rows(warehouse, 'SELECT count(*) AS n FROM learned_windows')).toEqual([{ n: '0' }]);
    } finally {
      await client.close();
      await dispose();
    }
  });
});
