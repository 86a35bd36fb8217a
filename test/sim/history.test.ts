import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { envelope, signedGet } from '../helpers/signed-get.js';

// The retail account of 2025 read in the middle of 2026, with the record endpoints reaching 365 days back.
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const clock = fakeClock(Date.UTC(2026, 5, 1, 12));
let retail: Simulator;
let stress: Simulator;

beforeAll(async () => {
  [retail, stress] = await Promise.all([
    startSimulator({ dataset: 'retail', from: FROM, to: TO, clock: clock.now, rateScale: 1000, historyDepthDays: 365 }),
    startSimulator({ seed: 'opened', from: FROM, to: Date.UTC(2025, 1, 1), records: 200, clock: clock.now }),
  ]);
});
afterAll(() => Promise.all([retail.close(), stress.close()]));

async function get(sim: Simulator, path: string, params: Record<string, string> = {}) {
  clock.advance(1000);
  const answer = await signedGet(sim, path, params, { timestamp: clock.now() });
  return { status: answer.status, text: answer.text, ...envelope(answer) };
}

describe('GET /api/v2/spot/account/info', () => {
  it("answers in the docs' example's shape, regisTime the account's registration", async () => {
    const info = await get(retail, '/api/v2/spot/account/info');
    expect(info.status).toBe(200);
    const data = info.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([
      'userId',
      'inviterId',
      'ips',
      'authorities',
      'parentId',
      'traderType',
      'channelCode',
      'channel',
      'regisTime',
    ]);
    expect(data['regisTime']).toBe(String(retail.dataset.openedAt));
    expect(data['regisTime']).toBe(String(Date.UTC(2022, 9, 4, 16, 44, 21, 277)));
    expect(data['parentId']).toBe(Number(data['userId']));
    // A stress data set opens 5 days before its range, funded then.
    expect(((await get(stress, '/api/v2/spot/account/info')).data as Record<string, unknown>)['regisTime']).toBe(
      String(FROM - 5 * DAY_MS),
    );
  });

  it('is limited to one request a second per key', async () => {
    const first = await get(stress, '/api/v2/spot/account/info');
    const second = await signedGet(stress, '/api/v2/spot/account/info', {}, { timestamp: clock.now() });
    expect([first.status, second.status]).toEqual([200, 429]);
  });
});

describe('--history-depth-days', () => {
  const reach = () => clock.now() - 365 * DAY_MS;
  const endpoints: [string, Record<string, string>, number][] = [
    ['/api/v2/tax/margin-record', { marginType: 'crossed' }, 30],
    ['/api/v2/tax/margin-record', { marginType: 'isolated' }, 30],
    ['/api/v2/mix/order/fill-history', { productType: 'USDT-FUTURES' }, 7],
    ['/api/v2/spot/wallet/withdrawal-records', {}, 90],
    ['/api/v2/spot/wallet/deposit-records', {}, 90],
    ['/api/v2/tax/future-record', { productType: 'USDT-FUTURES' }, 30],
    ['/api/v2/tax/spot-record', {}, 30],
    ['/api/v2/tax/p2p-record', {}, 30],
  ];

  it.each(endpoints)(
    '%s %j refuses a window older than the reach with 43111, and answers one that starts at it',
    async (path, params, days) => {
      // The window's start is what counts: one millisecond before the reach is refused, whatever its end.
      const start = reach() + 1000 - 1;
      const old = await get(retail, path, {
        ...params,
        startTime: String(start),
        endTime: String(start + days * DAY_MS - 1),
      });
      expect([old.status, old.text]).toEqual([
        400,
        `{"code":"43111","msg":"param error time range illegal","requestTime":${clock.now()},"data":null}`,
      ]);
      const inReach = await get(retail, path, {
        ...params,
        startTime: String(reach() + 1000),
        endTime: String(reach() + 1000 + days * DAY_MS - 1),
      });
      expect([inReach.status, inReach.code]).toEqual([200, '00000']);
    },
  );

  it('leaves the P2P advertisements alone (not a record stream read back to the registration), and a simulator without it answers every window, its funding deposits included', async () => {
    const ads = await get(retail, '/api/v2/p2p/advList', {
      side: 'sell',
      status: 'completed',
      startTime: String(FROM - 400 * DAY_MS),
    });
    expect(ads.status).toBe(200);
    const opening = stress.dataset.openedAt;
    const old = await get(stress, '/api/v2/spot/wallet/deposit-records', {
      startTime: String(opening),
      endTime: String(opening + DAY_MS),
    });
    expect([old.status, (old.data as unknown[]).length]).toEqual([200, 8]);
  });
});
