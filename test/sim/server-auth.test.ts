import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { envelope, signedGet } from '../helpers/signed-get.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 3, 1);
const clock = fakeClock(Date.UTC(2026, 0, 10, 12));
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 'auth', from: FROM, to: TO, records: 200, clock: clock.now, pendingMs: 0 });
});
afterAll(() => sim.close());

const path = '/api/v2/spot/wallet/withdrawal-records';
const params = { startTime: String(FROM), endTime: String(FROM + 86_400_000 * 30), limit: '100' };

/** Each case in its own second, so the 10/s limit never interferes with what is checked. */
async function get(options: Parameters<typeof signedGet>[3] = {}, credentials = sim.credentials) {
  clock.advance(1000);
  const answer = await signedGet({ baseUrl: sim.baseUrl, credentials }, path, params, {
    timestamp: clock.now(),
    ...options,
  });
  return { status: answer.status, ...envelope(answer) };
}

describe('simulator authentication', () => {
  it('accepts a correctly signed request', async () => {
    const answer = await get();
    expect([answer.status, answer.code, answer.msg]).toEqual([200, '00000', 'success']);
    expect(answer.requestTime).toBe(clock.now());
  });

  it.each([
    ['ACCESS-KEY', '40001', 'ACCESS_KEY cannot be empty'],
    ['ACCESS-SIGN', '40002', 'ACCESS_SIGN cannot be empty'],
    ['ACCESS-TIMESTAMP', '40003', 'ACCESS_TIMESTAMP cannot be empty'],
    ['ACCESS-PASSPHRASE', '40011', 'ACCESS_PASSPHRASE cannot be empty'],
  ])('refuses a request without %s: HTTP 400, %s', async (name, code, msg) => {
    const answer = await get({ headers: { [name]: undefined } });
    expect(answer).toMatchObject({ status: 400, code, msg, data: null });
  });

  it('refuses an unknown key (40037), a wrong passphrase (40012) and a wrong secret (40009)', async () => {
    const unknown = await get({}, { ...sim.credentials, apiKey: 'bg_nobody' });
    const passphrase = await get({}, { ...sim.credentials, passphrase: 'WrongPass1' });
    const secret = await get({}, { ...sim.credentials, secretKey: 'not-the-secret' });
    expect([unknown, passphrase, secret].map((a) => [a.status, a.code, a.msg])).toEqual([
      [400, '40037', 'Apikey does not exist'],
      [400, '40012', 'apikey/password is incorrect'],
      [400, '40009', 'sign signature error'],
    ]);
  });

  it('refuses a timestamp more than 30 s from server time (40008), accepts one within', async () => {
    const late = await get({ timestamp: clock.now() + 1000 - 30_001 });
    expect([late.status, late.code, late.msg]).toEqual([400, '40008', 'Request timestamp expired']);
    const early = await get({ timestamp: clock.now() + 1000 + 30_001 });
    expect(early.code).toBe('40008');
    const edge = await get({ timestamp: clock.now() + 1000 - 30_000 });
    expect(edge.code).toBe('00000');
    const malformed = await get({ headers: { 'ACCESS-TIMESTAMP': '17000000000' } });
    expect([malformed.status, malformed.code]).toEqual([400, '40005']);
  });

  it('refuses a signature over other parameters than those sent', async () => {
    const answer = await get({ signedQuery: 'endTime=1&limit=100&startTime=0' });
    expect([answer.status, answer.code]).toEqual([400, '40009']);
  });

  it('accepts unsorted queries signed as sent, and encoded queries signed encoded or decoded', async () => {
    const unsorted = `startTime=${params.startTime}&limit=100&endTime=${params.endTime}`;
    expect((await get({ rawQuery: unsorted })).code).toBe('00000');
    const encoded = `coin=US%44T&endTime=${params.endTime}&limit=100&startTime=${params.startTime}`;
    const asSent = await get({ rawQuery: encoded });
    const decoded = await get({ rawQuery: encoded, signedQuery: decodeURIComponent(encoded) });
    expect([asSent.code, decoded.code]).toEqual(['00000', '00000']);
    expect((asSent.data as { coin: string }[]).every((r) => r.coin === 'USDT')).toBe(true);
    expect(asSent.data).toEqual(decoded.data);
  });

  it('serves public time and contracts without any header', async () => {
    const time = await signedGet(
      sim,
      '/api/v2/public/time',
      {},
      { timestamp: clock.now(), headers: { 'ACCESS-KEY': undefined, 'ACCESS-SIGN': undefined } },
    );
    expect(envelope(time)).toEqual({
      code: '00000',
      msg: 'success',
      requestTime: clock.now(),
      data: { serverTime: String(clock.now()) },
    });
    const contracts = await signedGet(
      sim,
      '/api/v2/mix/market/contracts',
      { productType: 'susdt-futures' },
      { headers: { 'ACCESS-KEY': undefined } },
    );
    const data = envelope(contracts).data as { symbol: string; supportMarginCoins: string[] }[];
    expect(data.map((c) => c.symbol)).toEqual(['SBTCSUSDT', 'SETHSUSDT', 'SEOSSUSDT']);
    expect(data[0]?.supportMarginCoins).toEqual(['SUSDT']);
  });
});
