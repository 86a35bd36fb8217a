import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent, type Interceptable } from 'undici';
import { LedgerpipeError } from '../../src/errors/ledgerpipe-error.js';
import { PlatformError } from '../../src/errors/platform-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import { createSignedClient, type SignedClient } from '../../src/http/client.js';
import type { Credentials } from '../../src/http/credentials.js';
import { sign } from '../../src/http/signing.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';

const ORIGIN = 'https://api.ledger.test';
const WITHDRAWALS = '/api/v2/spot/wallet/withdrawal-records';
const TIME = '/api/v2/public/time';
const T0 = 1_700_000_000_000;
const CREDENTIALS: Credentials = {
  apiKey: 'bg_key_4f1c9e',
  secretKey: 'sEcReT-9d2b7a41-never-print',
  passphrase: 'pass-Phrase-77x',
};

/** One request as the mock server saw it. */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
}

let agent: MockAgent;
let pool: Interceptable;
let clock: FakeClock;
let seen: Seen[];

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  pool = agent.get(ORIGIN);
  clock = fakeClock(T0);
  seen = [];
});

afterEach(async () => {
  await agent.close();
});

function client(baseUrl = ORIGIN): SignedClient {
  return createSignedClient({ baseUrl, credentials: CREDENTIALS, clock: clock.now, dispatcher: agent });
}

/** Answers the next request to `path` (any query) with `status` and `body`, recording what was sent. */
function answer(path: string, status: number, body: string | object, options: { onRequest?: () => void } = {}) {
  pool.intercept({ path: (p) => p === path || p.startsWith(`${path}?`), method: () => true }).reply((opts) => {
    seen.push({ method: opts.method, path: opts.path, headers: { ...(opts.headers as Record<string, string>) } });
    options.onRequest?.();
    return { statusCode: status, data: typeof body === 'string' ? body : JSON.stringify(body) };
  });
}

const ok = (data: unknown) => ({ code: '00000', msg: 'success', requestTime: T0, data });

/** The signature the platform expects for a GET of `path` with the canonical `query` at `timestamp`. */
const expectedSign = (timestamp: string, path: string, query: string) =>
  sign(CREDENTIALS.secretKey, { timestamp, method: 'GET', requestPath: path, queryString: query });

/** The error `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<LedgerpipeError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerpipeError);
  return error as LedgerpipeError;
}

/** Asserts that nothing the error carries for people to read holds a secret. */
function expectNoSecrets(error: Error): void {
  const text = `${error.message}\n${String(error)}\n${error.stack ?? ''}\n${JSON.stringify(error)}`;
  expect(text.includes(CREDENTIALS.secretKey)).toBe(false);
  expect(text.includes(CREDENTIALS.passphrase)).toBe(false);
  expect(text.includes(CREDENTIALS.apiKey)).toBe(false);
}

describe('createSignedClient', () => {
  describe('requests', () => {
    it('sends only GET: the client has no other way to send', async () => {
      answer(WITHDRAWALS, 200, ok([]));
      const c = client();
      expect(Object.keys(c).sort()).toEqual(['close', 'get', 'offsetMs', 'syncTime']);
      await c.get(WITHDRAWALS, { limit: '100' });
      expect(seen.map((s) => s.method)).toEqual(['GET']);
    });

    it('signs the canonical sorted query with the four ACCESS headers', async () => {
      answer(WITHDRAWALS, 200, ok([]));
      await client().get(WITHDRAWALS, {
        startTime: '1700000000000',
        limit: '100',
        idLessThan: undefined,
        endTime: '1700604800000',
      });
      const query = 'endTime=1700604800000&limit=100&startTime=1700000000000';
      expect(seen).toEqual([
        {
          method: 'GET',
          path: `${WITHDRAWALS}?${query}`,
          headers: {
            'Content-Type': 'application/json',
            locale: 'en-US',
            'ACCESS-KEY': 'bg_key_4f1c9e',
            'ACCESS-PASSPHRASE': 'pass-Phrase-77x',
            'ACCESS-TIMESTAMP': '1700000000000',
            'ACCESS-SIGN': expectedSign('1700000000000', WITHDRAWALS, query),
          },
        },
      ]);
    });

    it('matches the live known answer for the withdrawal-records example', async () => {
      answer(WITHDRAWALS, 200, ok([]));
      const c = createSignedClient({
        baseUrl: ORIGIN,
        credentials: { ...CREDENTIALS, secretKey: 'test-secret' },
        clock: () => T0,
        dispatcher: agent,
      });
      await c.get(WITHDRAWALS, { startTime: '1700000000000', endTime: '1700604800000', limit: '100' });
      expect(seen[0]?.headers['ACCESS-SIGN']).toBe('ZH0ieof6yA/bu8glh7t+1wQVDkTij0JTEK+JmeBAo/g=');
    });

    it('signs with no "?" when there is no query, and drops trailing slashes of the base URL', async () => {
      answer('/api/v2/account/all-account-balance', 200, ok([]));
      await client(`${ORIGIN}//`).get('/api/v2/account/all-account-balance');
      expect(seen[0]?.path).toBe('/api/v2/account/all-account-balance');
      expect(seen[0]?.headers['ACCESS-SIGN']).toBe(
        expectedSign('1700000000000', '/api/v2/account/all-account-balance', ''),
      );
    });

    it('percent-encodes query values the same on the URL and in the signature', async () => {
      answer('/api/v2/mix/order/fill-history', 200, ok(null));
      await client().get('/api/v2/mix/order/fill-history', { symbol: 'BTC/USDT', productType: 'USDT-FUTURES' });
      const query = 'productType=USDT-FUTURES&symbol=BTC%2FUSDT';
      expect(seen[0]?.path).toBe(`/api/v2/mix/order/fill-history?${query}`);
      expect(seen[0]?.headers['ACCESS-SIGN']).toBe(
        expectedSign('1700000000000', '/api/v2/mix/order/fill-history', query),
      );
    });

    it('signs every call afresh with the clock at that moment', async () => {
      answer(WITHDRAWALS, 200, ok([]));
      answer(WITHDRAWALS, 200, ok([]));
      const c = client();
      await c.get(WITHDRAWALS, { limit: '100' });
      clock.advance(1234);
      await c.get(WITHDRAWALS, { limit: '100' });
      expect(seen.map((s) => s.headers['ACCESS-TIMESTAMP'])).toEqual(['1700000000000', '1700000001234']);
      expect(seen.map((s) => s.headers['ACCESS-SIGN'])).toEqual([
        expectedSign('1700000000000', WITHDRAWALS, 'limit=100'),
        expectedSign('1700000001234', WITHDRAWALS, 'limit=100'),
      ]);
      expect(seen[0]?.headers['ACCESS-SIGN']).not.toBe(seen[1]?.headers['ACCESS-SIGN']);
    });

    it('sends an unsigned GET when asked', async () => {
      answer(TIME, 200, ok({ serverTime: String(T0) }));
      await client().get(TIME, {}, { signed: false });
      expect(seen[0]?.headers).toEqual({ 'Content-Type': 'application/json', locale: 'en-US' });
    });
  });

  describe('syncTime', () => {
    it('measures the offset from the midpoint of the local clock around the call, unsigned', async () => {
      answer(TIME, 200, ok({ serverTime: String(T0 + 5000) }), { onRequest: () => clock.advance(200) });
      const c = client();
      expect(c.offsetMs).toBe(0);
      // Sent at T0, received at T0 + 200: the server read its clock at about T0 + 100.
      expect(await c.syncTime()).toBe(4900);
      expect(c.offsetMs).toBe(4900);
      expect(seen[0]).toEqual({
        method: 'GET',
        path: TIME,
        headers: { 'Content-Type': 'application/json', locale: 'en-US' },
      });
    });

    it('signs later requests with clock() + offset', async () => {
      answer(TIME, 200, ok({ serverTime: String(T0 + 5000) }), { onRequest: () => clock.advance(200) });
      answer(WITHDRAWALS, 200, ok([]));
      const c = client();
      await c.syncTime();
      clock.advance(100); // local T0 + 300, server T0 + 5200
      await c.get(WITHDRAWALS, { limit: '100' });
      expect(seen[1]?.headers['ACCESS-TIMESTAMP']).toBe('1700000005200');
      expect(seen[1]?.headers['ACCESS-SIGN']).toBe(expectedSign('1700000005200', WITHDRAWALS, 'limit=100'));
    });

    it('handles a server behind the local clock, a numeric serverTime and a half-millisecond midpoint', async () => {
      answer(TIME, 200, ok({ serverTime: T0 - 60_000 }), { onRequest: () => clock.advance(1) });
      answer(WITHDRAWALS, 200, ok([]));
      const c = client();
      expect(await c.syncTime()).toBe(-60_000.5);
      await c.get(WITHDRAWALS);
      // T0 + 1 - 60 000.5 = T0 - 59 999.5, rounded to whole milliseconds.
      expect(seen[1]?.headers['ACCESS-TIMESTAMP']).toBe('1699999940001');
    });

    it('rejects an answer without serverTime with LP_BAD_BODY and keeps the old offset', async () => {
      answer(TIME, 200, ok({ time: '1' }));
      const c = client();
      const error = await rejection(c.syncTime());
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        code: 'LP_BAD_BODY',
        retryable: true,
        message: 'GET /api/v2/public/time: answer without serverTime',
      });
      expect(c.offsetMs).toBe(0);
    });
  });

  describe('answers', () => {
    it('resolves HTTP 200 with code 00000 to data', async () => {
      const data = [{ orderId: '1', size: '0.10000000' }];
      answer(WITHDRAWALS, 200, ok(data));
      expect(await client().get(WITHDRAWALS)).toEqual(data);
    });

    it('resolves an empty answer to null', async () => {
      answer('/api/v2/mix/order/fill-history', 200, { code: '00000', msg: 'success', requestTime: T0, data: null });
      expect(await client().get('/api/v2/mix/order/fill-history')).toBeNull();
    });

    it('rejects HTTP 200 with another code as a PlatformError', async () => {
      answer(WITHDRAWALS, 200, { code: '40019', msg: 'Parameter coin cannot be empty', requestTime: T0, data: null });
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toBeInstanceOf(PlatformError);
      expect(error).toMatchObject({
        platformCode: '40019',
        httpStatus: 200,
        platformMessage: 'Parameter coin cannot be empty',
        code: 'LP_PLATFORM_40019',
        exit: 'unexpected',
        retryable: false,
      });
      expect(error.message).toBe(
        'the platform refused GET /api/v2/spot/wallet/withdrawal-records: HTTP 200, code 40019 "Parameter coin cannot be empty"; this is likely a ledgerpipe bug; please report it with this line',
      );
    });

    it('maps a wrong passphrase (40012) to exit auth', async () => {
      answer(WITHDRAWALS, 200, { code: '40012', msg: 'apikey/password is incorrect', requestTime: T0, data: null });
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({
        platformCode: '40012',
        httpStatus: 200,
        code: 'LP_PLATFORM_40012',
        exit: 'auth',
        retryable: false,
      });
      expect(error.message).toBe(
        `the platform refused GET ${WITHDRAWALS}: HTTP 200, code 40012 "apikey/password is incorrect"; check the passphrase in LEDGERPIPE_API_PASSPHRASE (or your profile's variable)`,
      );
      expectNoSecrets(error);
    });

    it('rejects HTTP 400 with 40009 as a PlatformError with exit auth', async () => {
      answer(WITHDRAWALS, 400, { code: '40009', msg: 'sign signature error', requestTime: T0, data: null });
      const error = await rejection(client().get(WITHDRAWALS, { limit: '100' }));
      expect(error).toBeInstanceOf(PlatformError);
      expect(error).toMatchObject({
        platformCode: '40009',
        httpStatus: 400,
        code: 'LP_PLATFORM_40009',
        exit: 'auth',
        retryable: false,
      });
      expect(error.message).toBe(
        `the platform refused GET ${WITHDRAWALS}: HTTP 400, code 40009 "sign signature error"; check the secret in LEDGERPIPE_API_SECRET (or your profile's variable)`,
      );
      expectNoSecrets(error);
    });

    it('rejects HTTP 429 as a rate-limited PlatformError', async () => {
      answer(WITHDRAWALS, 429, { code: '429', msg: 'Too Many Requests', requestTime: T0, data: null });
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({ platformCode: '429', httpStatus: 429, rateLimited: true, retryable: false });
    });

    it('rejects HTTP 500 with 40015 as a retryable PlatformError', async () => {
      answer(WITHDRAWALS, 500, {
        code: '40015',
        msg: 'System is abnormal, please try again later',
        requestTime: T0,
        data: null,
      });
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toBeInstanceOf(PlatformError);
      expect(error).toMatchObject({
        platformCode: '40015',
        httpStatus: 500,
        code: 'LP_PLATFORM_40015',
        retryable: true,
        exit: 'unexpected',
        rateLimited: false,
      });
    });

    it('rejects an HTTP 404 whose code is 00000: success needs both', async () => {
      answer(WITHDRAWALS, 404, ok([]));
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({ platformCode: '00000', httpStatus: 404, retryable: false });
    });

    it('rejects HTTP 502 with an HTML page as a retryable TransportError LP_BAD_BODY', async () => {
      const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
      answer(WITHDRAWALS, 502, html);
      const error = await rejection(client().get(WITHDRAWALS, { limit: '100' }));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'LP_BAD_BODY', retryable: true, exit: 'incomplete' });
      expect(error.message).toBe(`GET ${WITHDRAWALS}: HTTP 502 with a body that is not JSON (${html.length} bytes)`);
      expect(error.cause).toBeInstanceOf(SyntaxError);
      expectNoSecrets(error);
    });

    it('rejects a truncated JSON body with LP_BAD_BODY', async () => {
      const truncated = '{"code":"00000","msg":"success","data":[{"orderId":"1","size":"0.1';
      answer(WITHDRAWALS, 200, truncated);
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({
        code: 'LP_BAD_BODY',
        retryable: true,
        message: `GET ${WITHDRAWALS}: HTTP 200 with a body that is not JSON (66 bytes)`,
      });
      expect(truncated.length).toBe(66);
    });

    it('rejects JSON without a code with LP_BAD_ENVELOPE', async () => {
      answer(WITHDRAWALS, 200, { msg: 'success', data: [] });
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'LP_BAD_ENVELOPE', retryable: true, exit: 'incomplete' });
      expect(error.message).toBe(`GET ${WITHDRAWALS}: HTTP 200 with JSON that is not the platform's envelope`);
    });

    it('rejects a JSON array or a numeric code with LP_BAD_ENVELOPE', async () => {
      answer(WITHDRAWALS, 200, '[]');
      answer(WITHDRAWALS, 200, { code: 0, data: [] });
      const c = client();
      expect(await rejection(c.get(WITHDRAWALS))).toMatchObject({ code: 'LP_BAD_ENVELOPE' });
      expect(await rejection(c.get(WITHDRAWALS))).toMatchObject({ code: 'LP_BAD_ENVELOPE' });
    });
  });

  describe('secrets', () => {
    it('never puts the secret key, passphrase or key into an error, whatever the answer', async () => {
      const answers: Array<[number, string | object]> = [
        [400, { code: '40009', msg: 'sign signature error', data: null }],
        [400, { code: '40012', msg: 'apikey/password is incorrect', data: null }],
        [200, { code: '40019', msg: 'Parameter verification exception', data: null }],
        [429, { code: '429', msg: 'Too Many Requests', data: null }],
        [500, { code: '40015', msg: 'System is abnormal', data: null }],
        [502, '<html>Bad Gateway</html>'],
        [200, '{"code":"00000","data":['],
        [200, { data: [] }],
      ];
      for (const [status, body] of answers) answer(WITHDRAWALS, status, body);
      const c = client();
      const codes: string[] = [];
      for (let i = 0; i < answers.length; i++) {
        const error = await rejection(c.get(WITHDRAWALS, { limit: '100', startTime: '1', endTime: '2' }));
        expectNoSecrets(error);
        codes.push(error.code);
      }
      expect(codes).toEqual([
        'LP_PLATFORM_40009',
        'LP_PLATFORM_40012',
        'LP_PLATFORM_40019',
        'LP_PLATFORM_429',
        'LP_PLATFORM_40015',
        'LP_BAD_BODY',
        'LP_BAD_BODY',
        'LP_BAD_ENVELOPE',
      ]);
      // The requests did carry them: the check above is not vacuous.
      expect(seen.map((s) => [s.headers['ACCESS-KEY'], s.headers['ACCESS-PASSPHRASE']])).toEqual(
        answers.map(() => [CREDENTIALS.apiKey, CREDENTIALS.passphrase]),
      );
    });

    it('takes out a secret the server echoes with JSON escapes, in the error and in the data', async () => {
      // The passphrase with every character as a \\u escape: no text match sees it before JSON.parse does.
      const escaped = [...CREDENTIALS.passphrase]
        .map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
      answer(
        WITHDRAWALS,
        400,
        `{"code":"40017","msg":"headers: {\\"ACCESS-PASSPHRASE\\":\\"${escaped}\\"}","data":null}`,
      );
      answer(
        WITHDRAWALS,
        200,
        `{"code":"00000","msg":"success","data":[{"orderId":"1","tag":"${escaped}","nested":{"list":["${escaped}!"]},"size":"1"}]}`,
      );
      const c = client();
      const error = await rejection(c.get(WITHDRAWALS, { limit: '100' }));
      expect(error.message).toBe(
        'the platform refused GET /api/v2/spot/wallet/withdrawal-records: HTTP 400, code 40017 "headers: {"ACCESS-PASSPHRASE":"[redacted]"}"; this is likely a ledgerpipe bug; please report it with this line',
      );
      expect(await c.get(WITHDRAWALS, { limit: '100' })).toEqual([
        { orderId: '1', tag: '[redacted]', nested: { list: ['[redacted]!'] }, size: '1' },
      ]);
    });
  });

  describe('network failures', () => {
    it('turns a connection reset into a retryable TransportError LP_NET_FAILED', async () => {
      pool
        .intercept({ path: (p) => p.startsWith(WITHDRAWALS) })
        .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      const error = await rejection(client().get(WITHDRAWALS, { limit: '100' }));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        code: 'LP_NET_FAILED',
        retryable: true,
        exit: 'incomplete',
        message: `GET ${WITHDRAWALS}: connection failed (ECONNRESET)`,
      });
      expectNoSecrets(error);
    });

    it('says nothing answers on a refused connection, without the base URL credentials', async () => {
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
      pool.intercept({ path: (p) => p.startsWith(WITHDRAWALS) }).replyWithError(refused);
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({
        code: 'LP_NET_REFUSED',
        retryable: true,
        message:
          'nothing answers at https://api.ledger.test (connection refused); check --base-url and that the service is up',
        cause: refused,
      });
    });

    it('says the host cannot be resolved on ENOTFOUND', async () => {
      pool
        .intercept({ path: (p) => p.startsWith(WITHDRAWALS) })
        .replyWithError(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      const error = await rejection(client().get(WITHDRAWALS));
      expect(error).toMatchObject({
        code: 'LP_NET_DNS',
        retryable: true,
        message: 'cannot resolve the host of https://api.ledger.test; check --base-url and DNS',
      });
    });

    it('gives up on an answer slower than timeouts.totalMs with LP_NET_TIMEOUT', async () => {
      pool
        .intercept({ path: (p) => p.startsWith(TIME) })
        .reply(200, JSON.stringify(ok({ serverTime: '1' })))
        .delay(200);
      const c = createSignedClient({
        baseUrl: ORIGIN,
        credentials: CREDENTIALS,
        clock: clock.now,
        dispatcher: agent,
        timeouts: { totalMs: 20 },
      });
      const error = await rejection(c.syncTime());
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'LP_NET_TIMEOUT', retryable: true });
      expect(error.message).toBe(`GET ${TIME}: no answer within 20 ms`);
    });

    it('close() leaves a dispatcher it was given open', async () => {
      answer(WITHDRAWALS, 200, ok([]));
      const c = client();
      await c.close();
      expect(await c.get(WITHDRAWALS)).toEqual([]);
    });
  });
});

describe('the size of an answer', () => {
  /** A server on 127.0.0.1 that answers every request with `write`, and counts the bytes it got out. */
  async function serve(
    write: (res: ServerResponse) => void,
  ): Promise<{ url: string; sent: () => number; close: () => Promise<void> }> {
    let sent = 0;
    const server = createServer((_req, res) => {
      const original = res.write.bind(res);
      res.write = ((chunk: string, ...rest: never[]) => {
        sent += Buffer.byteLength(chunk);
        return original(chunk, ...rest);
      }) as typeof res.write;
      write(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      sent: () => sent,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  const capped = (url: string, maxBodyBytes: number) =>
    createSignedClient({ baseUrl: url, credentials: CREDENTIALS, maxBodyBytes });
  const body = (bytes: number) => {
    const head = JSON.stringify({ code: '00000', msg: '', data: [] });
    return JSON.stringify({ code: '00000', msg: 'x'.repeat(bytes - head.length), data: [] });
  };

  it('reads an answer of exactly the cap', async () => {
    const server = await serve((res) => res.end(body(1000)));
    const c = capped(server.url, 1000);
    try {
      expect(body(1000)).toHaveLength(1000);
      expect(await c.get(WITHDRAWALS)).toEqual([]);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('stops reading an answer without a length as soon as it passes the cap, and does not ask again', async () => {
    // 300-byte chunks without end: the client must stop it, at the fourth chunk.
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => {
        if (res.destroyed || !res.write('x'.repeat(300))) clearInterval(timer);
      }, 2);
      res.on('close', () => clearInterval(timer));
    });
    const c = capped(server.url, 1000);
    try {
      const error = await c.get(WITHDRAWALS).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        code: 'LP_BODY_TOO_LARGE',
        retryable: false,
        exit: 'incomplete',
        message: `GET ${WITHDRAWALS}: the answer is larger than 1000 bytes, the most ledgerpipe reads (a page of records is well under 1 MiB), so it was not read; the server is misbehaving`,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.sent()).toBeLessThan(3000);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('refuses an answer whose declared length passes the default cap of 16 MiB before reading it', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(16 * 1024 * 1024 + 1) });
      res.write('{"code":"00000"');
    });
    const c = createSignedClient({ baseUrl: server.url, credentials: CREDENTIALS });
    try {
      await expect(c.get(WITHDRAWALS)).rejects.toThrow(
        `GET ${WITHDRAWALS}: the answer is larger than 16 MiB, the most ledgerpipe reads`,
      );
      expect(server.sent()).toBe(15);
    } finally {
      await c.close();
      await server.close();
    }
  });
});

describe('when a request counts as sent', () => {
  it('tells onSent when the request is written, not when get is called: a request queued for the one connection waits', async () => {
    const events: string[] = [];
    const held: ServerResponse[] = [];
    const server = createServer((req, res) => {
      events.push(`arrived ${String(req.url)}`);
      held.push(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const c = createSignedClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: CREDENTIALS,
      connections: 1,
    });
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    try {
      const first = c.get(WITHDRAWALS, { n: '1' }, { onSent: () => events.push('sent 1') });
      const second = c.get(WITHDRAWALS, { n: '2' }, { onSent: () => events.push('sent 2') });
      await until(() => held.length === 1);
      // The second waits for the connection the first holds: not sent yet, whatever the time since get.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toEqual(['sent 1', `arrived ${WITHDRAWALS}?n=1`]);
      held[0]?.end(JSON.stringify(ok([1])));
      expect(await first).toEqual([1]);
      await until(() => held.length === 2);
      expect(events).toEqual(['sent 1', `arrived ${WITHDRAWALS}?n=1`, 'sent 2', `arrived ${WITHDRAWALS}?n=2`]);
      held[1]?.end(JSON.stringify(ok([2])));
      expect(await second).toEqual([2]);
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('never tells onSent of a request that could not leave', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const c = createSignedClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: CREDENTIALS });
    let sent = 0;
    try {
      await expect(c.get(WITHDRAWALS, {}, { onSent: () => sent++ })).rejects.toMatchObject({ code: 'LP_NET_REFUSED' });
      expect(sent).toBe(0);
    } finally {
      await c.close();
    }
  });
});
