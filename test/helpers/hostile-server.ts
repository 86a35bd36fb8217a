import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a handler answers: a status, a body (an object is sent as JSON), and headers. */
export interface HostileAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** One request as the server saw it. */
export interface HostileRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export type HostileHandler = (request: HostileRequest) => HostileAnswer;

/** The envelope of a successful answer around `data`. */
export const ok = (data: unknown): HostileAnswer => ({
  body: { code: '00000', msg: 'success', requestTime: Date.now(), data },
});

/** An empty page of each record endpoint, in its own shape. */
const EMPTY: Readonly<Record<string, unknown>> = {
  '/api/v2/mix/order/fill-history': { fillList: [], endId: '' },
  '/api/v2/p2p/advList': { advList: [], minAdvId: '' },
};

export interface HostileServer {
  baseUrl: string;
  requests: HostileRequest[];
  close(): Promise<void>;
}

/**
 * A stand-in for the platform that answers as a test tells it to, per path, to see what ledgerpipe does with
 * a server that misbehaves: times in the wrong unit, secrets echoed in errors, duplicate ids, endless cursors,
 * redirects, huge answers. Paths without a handler answer an empty page of their shape; the server time is
 * this machine's. It checks no signature. Binds 127.0.0.1 on a free port.
 *
 * @example
 * const server = await startHostile({ '/api/v2/tax/margin-record': () => ok([]) });
 */
export async function startHostile(handlers: Readonly<Record<string, HostileHandler>>): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://hostile');
    const request = { path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(request);
    const handler = handlers[url.pathname];
    const answer: HostileAnswer =
      handler !== undefined
        ? handler(request)
        : url.pathname === '/api/v2/public/time'
          ? ok({ serverTime: String(Date.now()) })
          : url.pathname === '/api/v3/account/settings'
            ? // A classic key, as the platform answers it there (docs/unified-accounts.md).
              { status: 400, body: { code: '40084', msg: 'Classic Account mode', requestTime: Date.now(), data: null } }
            : ok(EMPTY[url.pathname] ?? []);
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const send = (): void => {
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        ...answer.headers,
      });
      res.end(text);
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs);
  };
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
