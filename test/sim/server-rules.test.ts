import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { expectedPage } from '../helpers/expected.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { envelope, signedGet } from '../helpers/signed-get.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 6, 1);
const clock = fakeClock(Date.UTC(2026, 0, 10, 12));
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 'rules', from: FROM, to: TO, records: 600, clock: clock.now, pendingMs: 0 });
});
afterAll(() => sim.close());

const MARGIN = '/api/v2/tax/margin-record';
const FILLS = '/api/v2/mix/order/fill-history';
const WITHDRAWALS = '/api/v2/spot/wallet/withdrawal-records';
const ADVERTS = '/api/v2/p2p/advList';
const DEPOSITS = '/api/v2/spot/wallet/deposit-records';
const FUTURE_TAX = '/api/v2/tax/future-record';
const SPOT_TAX = '/api/v2/tax/spot-record';
const P2P_TAX = '/api/v2/tax/p2p-record';

/** A request in a fresh second of the fake clock, so limits only bite where a test wants them to. */
async function get(
  path: string,
  params: Record<string, string | undefined>,
  options: { sameSecond?: boolean; method?: 'GET' | 'POST' } = {},
) {
  if (options.sameSecond !== true) clock.advance(1000);
  const answer = await signedGet(sim, path, params, {
    timestamp: clock.now(),
    ...(options.method ? { method: options.method } : {}),
  });
  return { status: answer.status, headers: answer.headers, ...envelope(answer) };
}

const span = (start: number, days: number, extraMs = 0) => ({
  startTime: String(start),
  endTime: String(start + days * DAY_MS + extraMs),
});

describe('rate limits: a sliding one-second window per key and endpoint', () => {
  it('answers the request over 1/s on margin-record with HTTP 429 and the live body, then admits after a second', async () => {
    const params = { ...span(FROM, 30), marginType: 'crossed' };
    const first = await get(MARGIN, params);
    const second = await get(MARGIN, params, { sameSecond: true });
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 429, code: '429', msg: 'Too Many Requests', data: null });
    expect(second.headers['x-mbx-used-remain-limit']).toBe('0');
    // Other endpoints have their own limits: withdrawals still answer in the same second.
    expect((await get(WITHDRAWALS, span(FROM, 30), { sameSecond: true })).status).toBe(200);
    clock.advance(999);
    expect((await get(MARGIN, params, { sameSecond: true })).status).toBe(429);
    clock.advance(1);
    expect((await get(MARGIN, params, { sameSecond: true })).status).toBe(200);
  });

  it('limits each tax-record endpoint to 1/s and deposit-records to 10/s, each on its own', async () => {
    clock.advance(5000);
    const statuses = async (path: string, extra: Record<string, string>, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++)
        out.push((await get(path, { ...extra, ...span(FROM, 7) }, { sameSecond: true })).status);
      return out;
    };
    expect(await statuses(FUTURE_TAX, { productType: 'USDT-FUTURES' }, 2)).toEqual([200, 429]);
    expect(await statuses(SPOT_TAX, {}, 2)).toEqual([200, 429]);
    expect(await statuses(P2P_TAX, {}, 2)).toEqual([200, 429]);
    expect(await statuses(DEPOSITS, {}, 11)).toEqual([...Array(10).fill(200), 429]);
  });

  it('admits 10 fill-history requests in one second and refuses the 11th', async () => {
    clock.advance(5000);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await get(FILLS, { productType: 'USDT-FUTURES', ...span(FROM, 7) }, { sameSecond: true })).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });

  it('multiplies every limit by --rate-scale', async () => {
    const scaled = await startSimulator({
      seed: 'rules',
      from: FROM,
      to: TO,
      records: 10,
      clock: clock.now,
      rateScale: 3,
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await signedGet(scaled, MARGIN, span(FROM, 30), { timestamp: clock.now() })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await scaled.close();
    }
  });
});

describe('time windows and parameters', () => {
  it.each([
    [MARGIN, {}, 366, '00001', 'startTime and endTime interval cannot be greater than 366 days'],
    [
      FILLS,
      { productType: 'USDT-FUTURES' },
      7,
      '00001',
      'startTime and endTime interval cannot be greater than 7 days',
    ],
    [WITHDRAWALS, {}, 90, '40705', 'The start and end time cannot exceed 90 days'],
    [ADVERTS, { side: 'buy', status: 'online' }, 90, '40705', 'The start and end time cannot exceed 90 days'],
    [DEPOSITS, {}, 90, '40705', 'The start and end time cannot exceed 90 days'],
    [
      FUTURE_TAX,
      { productType: 'USDT-FUTURES' },
      30,
      '00001',
      'startTime and endTime interval cannot be greater than 30 days',
    ],
    [SPOT_TAX, {}, 30, '00001', 'startTime and endTime interval cannot be greater than 30 days'],
    [P2P_TAX, {}, 30, '00001', 'startTime and endTime interval cannot be greater than 30 days'],
  ])('%s accepts exactly its window and refuses a millisecond more', async (path, extra, days, code, msg) => {
    expect((await get(path, { ...extra, ...span(FROM, days) })).code).toBe('00000');
    expect(await get(path, { ...extra, ...span(FROM, days, 1) })).toMatchObject({ status: 400, code, msg, data: null });
  });

  it('narrows margin-record to --margin-window-days', async () => {
    const narrow = await startSimulator({
      seed: 'rules',
      from: FROM,
      to: TO,
      records: 10,
      marginWindowDays: 30,
      clock: clock.now,
    });
    try {
      const ok = await signedGet(narrow, MARGIN, span(FROM, 30), { timestamp: clock.advance(1000) });
      const wide = await signedGet(narrow, MARGIN, span(FROM, 30, 1), { timestamp: clock.advance(1000) });
      expect(envelope(ok).code).toBe('00000');
      expect([wide.status, envelope(wide).code, envelope(wide).msg]).toEqual([
        400,
        '00001',
        'startTime and endTime interval cannot be greater than 30 days',
      ]);
    } finally {
      await narrow.close();
    }
  });

  it.each([[MARGIN], [FILLS], [WITHDRAWALS], [ADVERTS], [DEPOSITS], [FUTURE_TAX], [SPOT_TAX], [P2P_TAX]])(
    '%s refuses startTime after endTime with 20001',
    async (path) => {
      const answer = await get(path, {
        productType: 'USDT-FUTURES',
        startTime: String(FROM + 1),
        endTime: String(FROM),
      });
      expect([answer.status, answer.code]).toEqual([400, '20001']);
    },
  );

  it.each([
    [MARGIN, { endTime: String(FROM) }, 'startTime'],
    [MARGIN, { startTime: String(FROM) }, 'endTime'],
    [WITHDRAWALS, { startTime: String(FROM) }, 'endTime'],
    [ADVERTS, { endTime: String(FROM) }, 'startTime'],
    // The live docs require side and status (the spec makes them optional).
    [ADVERTS, { ...span(FROM, 1), status: 'online' }, 'side'],
    [ADVERTS, { ...span(FROM, 1), side: 'sell' }, 'status'],
    [FILLS, span(FROM, 1), 'productType'],
    [DEPOSITS, { startTime: String(FROM) }, 'endTime'],
    [FUTURE_TAX, span(FROM, 1), 'productType'],
    [SPOT_TAX, { startTime: String(FROM) }, 'endTime'],
    [P2P_TAX, { endTime: String(FROM) }, 'startTime'],
  ])('%s without a required parameter: 40019 naming it', async (path, params, name) => {
    expect(await get(path, params)).toMatchObject({
      status: 400,
      code: '40019',
      msg: `Parameter ${name} cannot be empty`,
    });
  });

  it.each([
    [MARGIN, {}, '501'],
    [FILLS, { productType: 'USDT-FUTURES' }, '101'],
    [WITHDRAWALS, {}, '101'],
    // The live cap since 2024-08-28 (the spec's default is 100).
    [ADVERTS, { side: 'buy', status: 'online' }, '21'],
    [WITHDRAWALS, {}, '0'],
    [WITHDRAWALS, {}, 'ten'],
    [DEPOSITS, {}, '101'],
    [FUTURE_TAX, { productType: 'COIN-FUTURES' }, '501'],
    [SPOT_TAX, {}, '501'],
    [P2P_TAX, {}, '501'],
  ])('%s refuses a page size over its maximum: limit=%s', async (path, extra, limit) => {
    expect(await get(path, { ...extra, ...span(FROM, 7), limit })).toMatchObject({
      status: 400,
      code: '40020',
      msg: 'Parameter limit error',
    });
  });

  it('refuses malformed times and ids', async () => {
    expect((await get(WITHDRAWALS, { startTime: 'yesterday', endTime: String(FROM) })).msg).toBe(
      'Parameter startTime error',
    );
    expect((await get(WITHDRAWALS, { ...span(FROM, 7), idLessThan: '12a' })).msg).toBe('Parameter idLessThan error');
  });

  it('reads an omitted marginType as crossed and refuses the spec spelling "cross"', async () => {
    const window = { ...span(FROM, 90), limit: '500' };
    const omitted = await get(MARGIN, window);
    const crossed = await get(MARGIN, { ...window, marginType: 'crossed' });
    const isolated = await get(MARGIN, { ...window, marginType: 'isolated' });
    expect(omitted.data).toEqual(
      expectedPage(sim.dataset, 'margin_records', 'crossed', {
        startTime: FROM,
        endTime: FROM + 90 * DAY_MS,
        limit: 500,
      }),
    );
    expect(crossed.data).toEqual(omitted.data);
    expect(isolated.data).toEqual(
      expectedPage(sim.dataset, 'margin_records', 'isolated', {
        startTime: FROM,
        endTime: FROM + 90 * DAY_MS,
        limit: 500,
      }),
    );
    expect(isolated.data).not.toEqual(omitted.data);
    expect(await get(MARGIN, { ...window, marginType: 'cross' })).toMatchObject({
      status: 400,
      code: '40020',
      msg: 'Parameter marginType error',
    });
  });

  it('has no fill-history for demo product types, takes product types in either case, refuses unknown ones', async () => {
    const window = span(FROM, 7);
    for (const productType of ['SUSDT-FUTURES', 'scoin-futures', 'SUSDC-FUTURES']) {
      const answer = await get(FILLS, { ...window, productType });
      expect(answer.code).toBe('00000');
      expect([null, { fillList: [], endId: '' }]).toContainEqual(answer.data);
    }
    const lower = await get(FILLS, { ...window, productType: 'usdt-futures' });
    const upper = await get(FILLS, { ...window, productType: 'USDT-FUTURES' });
    expect(lower.data).toEqual(upper.data);
    expect((upper.data as { fillList: unknown[] }).fillList.length).toBeGreaterThan(0);
    expect(await get(FILLS, { ...window, productType: 'SPOT' })).toMatchObject({
      status: 400,
      code: '40020',
      msg: 'Parameter productType error',
    });
  });

  it('answers an empty fill-history window as fillList [] with endId "" and now and then as data null', async () => {
    const empty = span(TO + 30 * DAY_MS, 7);
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++)
      seen.add(JSON.stringify((await get(FILLS, { ...empty, productType: 'COIN-FUTURES' })).data));
    expect([...seen].sort()).toEqual(['null', '{"fillList":[],"endId":""}']);
  });

  it('defaults fill-history to one week: after startTime, or before endTime', async () => {
    const start = FROM + 10 * DAY_MS;
    const fromStart = await get(FILLS, { productType: 'USDT-FUTURES', startTime: String(start), limit: '100' });
    const explicit = await get(FILLS, { productType: 'USDT-FUTURES', ...span(start, 7), limit: '100' });
    expect(fromStart.data).toEqual(explicit.data);
    const toEnd = await get(FILLS, { productType: 'USDT-FUTURES', endTime: String(start + 7 * DAY_MS), limit: '100' });
    expect(toEnd.data).toEqual(explicit.data);
  });

  it('answers unknown paths and non-GET methods with HTTP 404, code 40404', async () => {
    expect(await get('/api/v2/tax/nothing-here', {})).toMatchObject({ status: 404, code: '40404' });
    expect(await get(WITHDRAWALS, span(FROM, 7), { method: 'POST' })).toMatchObject({ status: 404, code: '40404' });
  });
});

describe('paging', () => {
  it('serves newest first, both ends inclusive, idLessThan exclusive', async () => {
    const records = sim.dataset.streams.withdrawals[0]!.records.filter((r) => r.ts >= FROM && r.ts < TO);
    const target = records[10]!;
    const exact = await get(WITHDRAWALS, { startTime: String(target.ts), endTime: String(target.ts), limit: '100' });
    expect((exact.data as { orderId: string }[]).map((r) => r.orderId)).toContain(target.id);
    const below = await get(WITHDRAWALS, { ...span(FROM, 90), idLessThan: target.id, limit: '5' });
    const expected = expectedPage(sim.dataset, 'withdrawals', '', {
      startTime: FROM,
      endTime: FROM + 90 * DAY_MS,
      idLessThan: target.id,
      limit: 5,
    });
    expect(below.data).toEqual(expected);
    expect(expected.map((r) => r['orderId'])).not.toContain(target.id);
    const times = (below.data as { cTime: string }[]).map((r) => Number(r.cTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('serves 20 withdrawals by default', async () => {
    expect((await get(WITHDRAWALS, span(FROM, 90))).data).toHaveLength(20);
  });

  it('gives endId = the last fill and minAdvId = the smallest advId of the page', async () => {
    const fills = await get(FILLS, { productType: 'USDT-FUTURES', ...span(FROM, 7), limit: '7' });
    const page = fills.data as { fillList: { tradeId: string }[]; endId: string };
    expect(page.fillList.map((f) => f.tradeId)).toEqual(
      expectedPage(sim.dataset, 'futures_fills', 'USDT-FUTURES', {
        startTime: FROM,
        endTime: FROM + 7 * DAY_MS,
        limit: 7,
      }).map((r) => r['tradeId']),
    );
    expect(page.endId).toBe(page.fillList.at(-1)?.tradeId);
    const adverts = await get(ADVERTS, { ...span(FROM, 90), side: 'sell', status: 'completed', limit: '9' });
    const list = adverts.data as { advList: { advId: string; side: string; status: string }[]; minAdvId: string };
    expect(list.advList).toHaveLength(9);
    expect(list.advList.every((a) => a.side === 'sell' && a.status === 'completed')).toBe(true);
    expect(list.minAdvId).toBe(
      list.advList
        .map((a) => a.advId)
        .sort()
        .at(0),
    );
    // 20 by default, the live default and cap.
    expect(
      ((await get(ADVERTS, { ...span(FROM, 90), side: 'sell', status: 'completed' })).data as { advList: unknown[] })
        .advList,
    ).toHaveLength(20);
    expect((await get(ADVERTS, { ...span(TO + 10 * DAY_MS, 10), side: 'buy', status: 'online' })).data).toEqual({
      advList: [],
      minAdvId: '',
    });
  });
});

describe('withdrawals whose status moves while the simulator runs', () => {
  it('serves them pending until --pending-seconds have passed, then final with a later uTime', async () => {
    const local = fakeClock(Date.UTC(2026, 0, 10));
    const moving = await startSimulator({
      seed: 'rules',
      from: FROM,
      to: TO,
      records: 50,
      clock: local.now,
      pendingMs: 60_000,
    });
    try {
      const lastDay = { startTime: String(TO - DAY_MS), endTime: String(TO - 1), limit: '100' };
      const before = envelope(await signedGet(moving, WITHDRAWALS, lastDay, { timestamp: local.now() })).data as Record<
        string,
        string
      >[];
      local.advance(60_000);
      const after = envelope(await signedGet(moving, WITHDRAWALS, lastDay, { timestamp: local.now() })).data as Record<
        string,
        string
      >[];
      const movers = moving.dataset.streams.withdrawals[0]!.records.filter((r) => r.before !== undefined);
      expect(movers).toHaveLength(3);
      const ids = movers.map((r) => r.id);
      const pick = (rows: Record<string, string>[]) => rows.filter((r) => ids.includes(r['orderId'] as string));
      expect(pick(before).map((r) => [r['status'], r['uTime'] === r['cTime']])).toEqual(
        movers.map(() => ['pending', true]),
      );
      expect(pick(after)).toEqual(movers.map((r) => r.record));
      expect(
        pick(after)
          .map((r) => r['status'])
          .sort(),
      ).toEqual(['reject', 'success', 'success']);
      expect(pick(after).every((r) => Number(r['uTime']) > Number(r['cTime']))).toBe(true);
    } finally {
      await moving.close();
    }
  });
});

describe('a window holding more than 20,000 records', () => {
  it('is refused with 40303 "Can only query up to 20,000 data", whatever the page; a narrower window answers', async () => {
    const busyClock = fakeClock(Date.UTC(2026, 0, 10, 12));
    const busy = await startSimulator({
      seed: 'busy',
      from: Date.UTC(2025, 0, 1),
      to: Date.UTC(2026, 0, 1),
      records: 100_000,
      clock: busyClock.now,
      pendingMs: 0,
    });
    try {
      const crossed = busy.dataset.streams.margin_records.find((p) => p.name === 'crossed')!.records;
      const inYear = crossed.filter((r) => r.ts >= Date.UTC(2025, 0, 1) && r.ts <= Date.UTC(2026, 0, 1));
      expect(inYear.length).toBeGreaterThan(20_000);
      const ask = async (startTime: number, endTime: number) => {
        busyClock.advance(1000);
        const answer = await signedGet(
          busy,
          MARGIN,
          { marginType: 'crossed', startTime: String(startTime), endTime: String(endTime), limit: '1' },
          { timestamp: busyClock.now() },
        );
        return { status: answer.status, ...envelope(answer) };
      };
      expect(await ask(Date.UTC(2025, 0, 1), Date.UTC(2026, 0, 1))).toMatchObject({
        status: 400,
        code: '40303',
        msg: 'Can only query up to 20,000 data',
        data: null,
      });
      // The window from just after the 20,001st newest record of the year holds at most 20,000 (records of one
      // deal share a millisecond); reaching back to it holds more.
      const newestFirst = [...inYear].sort((a, b) => b.ts - a.ts);
      const overTheCap = newestFirst[20_000]!.ts;
      expect(newestFirst.filter((r) => r.ts > overTheCap).length).toBeLessThanOrEqual(20_000);
      expect(await ask(overTheCap + 1, Date.UTC(2026, 0, 1))).toMatchObject({ status: 200, code: '00000' });
      expect(await ask(overTheCap, Date.UTC(2026, 0, 1))).toMatchObject({ status: 400, code: '40303' });
    } finally {
      await busy.close();
    }
  });
});
