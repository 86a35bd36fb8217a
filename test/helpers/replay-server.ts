import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The folder of the published examples (test/fixtures/real/README.md says where each comes from). */
export const REAL_FIXTURES = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

/** One fixture file served to one account, and the partition its records belong to (marginType, productType). */
export interface ReplayFile {
  file: string;
  partition?: string;
}

interface Endpoint {
  path: string;
  /** The fixture file name starts with this. */
  prefix: string;
  key: string;
  /** Request parameter that selects the partition, and the partition when a file names none. */
  partitionParam?: string;
  defaultPartition?: string;
  /** Required parameters that records must equal, field for field (advList's side and status, as the live docs say). */
  filters?: readonly string[];
  /**
   * The page is `{list, cursor}` (v3), `{profitList, endId}` (copy trading), or the answer's `data` as published
   * (`whole`).
   */
  shape: 'array' | 'fills' | 'adverts' | 'snapshot' | 'list' | 'profitList' | 'whole';
  /** The parameter that pages (default idLessThan; the v3 endpoints' `cursor`). */
  cursorParam?: string;
}

const ENDPOINTS: readonly Endpoint[] = [
  {
    path: '/api/v2/tax/margin-record',
    prefix: 'margin-record--',
    key: 'id',
    partitionParam: 'marginType',
    defaultPartition: 'crossed',
    shape: 'array',
  },
  {
    path: '/api/v2/mix/order/fill-history',
    prefix: 'fill-history--',
    key: 'tradeId',
    partitionParam: 'productType',
    defaultPartition: 'USDT-FUTURES',
    shape: 'fills',
  },
  { path: '/api/v2/spot/wallet/withdrawal-records', prefix: 'withdrawal-records--', key: 'orderId', shape: 'array' },
  { path: '/api/v2/p2p/advList', prefix: 'advList--', key: 'advId', filters: ['side', 'status'], shape: 'adverts' },
  { path: '/api/v2/spot/wallet/deposit-records', prefix: 'deposit-records--', key: 'orderId', shape: 'array' },
  {
    path: '/api/v2/tax/future-record',
    prefix: 'future-record--',
    key: 'id',
    partitionParam: 'productType',
    defaultPartition: 'USDT-FUTURES',
    shape: 'array',
  },
  { path: '/api/v2/tax/spot-record', prefix: 'spot-record--', key: 'id', shape: 'array' },
  { path: '/api/v2/tax/p2p-record', prefix: 'p2p-record--', key: 'id', shape: 'array' },
  {
    path: '/api/v2/account/all-account-balance',
    prefix: 'all-account-balance--',
    key: 'accountType',
    shape: 'snapshot',
  },
  // The per-asset balances (docs/completeness.md, "Balances"): the futures accounts per productType, the bots per
  // accountType.
  { path: '/api/v2/spot/account/assets', prefix: 'spot-assets--', key: 'coin', shape: 'snapshot' },
  {
    path: '/api/v2/mix/account/accounts',
    prefix: 'mix-accounts--',
    key: 'marginCoin',
    partitionParam: 'productType',
    defaultPartition: 'USDT-FUTURES',
    shape: 'snapshot',
  },
  { path: '/api/v2/margin/crossed/account/assets', prefix: 'margin-crossed-assets--', key: 'coin', shape: 'snapshot' },
  {
    path: '/api/v2/margin/isolated/account/assets',
    prefix: 'margin-isolated-assets--',
    key: 'coin',
    shape: 'snapshot',
  },
  { path: '/api/v2/earn/account/assets', prefix: 'earn-assets--', key: 'coin', shape: 'snapshot' },
  { path: '/api/v2/account/funding-assets', prefix: 'funding-assets--', key: 'coin', shape: 'snapshot' },
  {
    path: '/api/v2/account/bot-assets',
    prefix: 'bot-assets--',
    key: 'coin',
    partitionParam: 'accountType',
    defaultPartition: 'futures',
    shape: 'snapshot',
  },
  // A unified account (docs/unified-accounts.md): an account without a settings example is answered 404 there, as an
  // address that serves no v3 endpoint is, and is read as classic.
  { path: '/api/v3/account/settings', prefix: 'uta-settings--', key: 'uid', shape: 'whole' },
  {
    path: '/api/v3/tax/records',
    prefix: 'uta-tax-records--',
    key: 'id',
    partitionParam: 'bizType',
    defaultPartition: 'SPOT',
    shape: 'array',
    cursorParam: 'cursor',
  },
  {
    path: '/api/v3/account/financial-records',
    prefix: 'uta-financial-records--',
    key: 'id',
    partitionParam: 'category',
    defaultPartition: 'SPOT',
    shape: 'list',
    cursorParam: 'cursor',
  },
  // No published example of the funding account's records: an empty list.
  {
    path: '/api/v3/account/funding-financial-records',
    prefix: 'uta-funding-financial-records--',
    key: 'id',
    shape: 'list',
    cursorParam: 'cursor',
  },
  { path: '/api/v3/account/assets', prefix: 'uta-assets--', key: 'coin', shape: 'whole' },
  { path: '/api/v3/account/funding-assets', prefix: 'uta-funding-assets--', key: 'coin', shape: 'snapshot' },
  // A lead trader's profit shares, and open loans (docs/completeness.md, "Open loans").
  {
    path: '/api/v2/copy/mix-trader/profit-history-details',
    prefix: 'lead-trader-profits--',
    key: 'profitId',
    shape: 'profitList',
  },
  { path: '/api/v2/earn/loan/ongoing-orders', prefix: 'loan-orders--', key: 'orderId', shape: 'snapshot' },
];

type Row = Record<string, unknown>;

/** The records of a fixture file, whether it holds the whole answer (`response`) or only its `data`. */
function recordsOf(fixture: { response?: { data?: unknown }; data?: unknown }): Row[] {
  const data = fixture.response !== undefined ? fixture.response.data : fixture.data;
  if (Array.isArray(data)) return data as Row[];
  const page = (data ?? {}) as {
    fillList?: Row[];
    advList?: Row[];
    merchantList?: Row[];
    list?: Row[];
    profitList?: Row[];
  };
  return page.fillList ?? page.advList ?? page.merchantList ?? page.list ?? page.profitList ?? [];
}

const timeOf = (r: Row): number => Number(r['ts'] ?? r['cTime'] ?? r['ctime'] ?? r['profitTime']);
const byIdDescending = (key: string) => (a: Row, b: Row) => {
  const x = BigInt(String(a[key]));
  const y = BigInt(String(b[key]));
  return x < y ? 1 : x > y ? -1 : 0;
};

/**
 * The account info endpoint (docs/history.md): answered for a key given `registeredAt`, else 404 as an unknown path.
 */
const ACCOUNT_INFO_PATH = '/api/v2/spot/account/info';

/** What one API key sees: its account's name, published examples, records of a test's own, and its opening. */
export interface ReplayKey {
  account: string;
  files: readonly ReplayFile[];
  /** Records a test writes itself, in the live shapes, for the endpoint whose fixture files start with `prefix`. */
  records?: readonly { prefix: string; partition?: string; rows: readonly Row[] }[];
  /** The account's registration (regisTime of GET /api/v2/spot/account/info), Unix ms; without it that path is 404. */
  registeredAt?: number;
}

export interface ReplayOptions {
  /** The platform answers nothing older: a window starting before this (Unix ms) is refused with 43111. */
  reachFrom?: number;
}

export interface Replay {
  baseUrl: string;
  /** Paths asked for, in order, with the account that asked. */
  requests: { account: string; path: string }[];
  close(): Promise<void>;
}

/**
 * A stand-in for the platform that answers with published examples (test/fixtures/real/) instead of generated
 * data: each API key sees its own files. Windows are inclusive at both ends, records newest first by key,
 * idLessThan exclusive, at most `limit` per page; the envelope and the shapes are the live ones. It checks no
 * signature (the simulator does): it is here to replay what others saw. Binds 127.0.0.1 on a free port.
 *
 * @example
 * const replay = await startReplay({ key1: { account: 'docs', files: [{ file: 'margin-record--bitget-docs.json' }] } });
 */
export async function startReplay(
  keys: Readonly<Record<string, ReplayKey>>,
  options: ReplayOptions = {},
): Promise<Replay> {
  const served = new Map<
    string,
    { account: string; registeredAt: number | undefined; byPath: Map<string, { partition: string; record: Row }[]> }
  >();
  for (const [apiKey, { account, files, records = [], registeredAt }] of Object.entries(keys)) {
    const byPath = new Map<string, { partition: string; record: Row }[]>();
    for (const { prefix, partition, rows } of records) {
      const endpoint = ENDPOINTS.find((e) => e.prefix === prefix);
      if (endpoint === undefined) throw new Error(`replay: no endpoint has the prefix ${prefix}`);
      byPath.set(endpoint.path, [
        ...(byPath.get(endpoint.path) ?? []),
        ...rows.map((record) => ({ partition: partition ?? endpoint.defaultPartition ?? '', record })),
      ]);
    }
    for (const { file, partition } of files) {
      const endpoint = ENDPOINTS.find((e) => file.startsWith(e.prefix));
      if (endpoint === undefined) throw new Error(`replay: no endpoint serves ${file}`);
      const fixture = JSON.parse(await readFile(`${REAL_FIXTURES}${file}`, 'utf8')) as {
        response?: { data?: unknown };
        data?: unknown;
      };
      // A `whole` answer is served as published: its data is the one "record".
      const whole =
        endpoint.shape === 'whole'
          ? [(fixture.response !== undefined ? fixture.response.data : fixture.data) as Row]
          : undefined;
      const rows = (whole ?? recordsOf(fixture)).map((record) => ({
        partition: partition ?? endpoint.defaultPartition ?? '',
        record,
      }));
      byPath.set(endpoint.path, [...(byPath.get(endpoint.path) ?? []), ...rows]);
    }
    served.set(apiKey, { account, registeredAt, byPath });
  }
  const requests: Replay['requests'] = [];
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const ok = (data: unknown) => ({ code: '00000', msg: 'success', requestTime: Date.now(), data });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://replay');
    if (url.pathname === '/api/v2/public/time') return send(res, 200, ok({ serverTime: String(Date.now()) }));
    if (url.pathname === ACCOUNT_INFO_PATH) {
      const who = served.get(String(req.headers['access-key'] ?? ''));
      if (who?.registeredAt === undefined)
        return send(res, 404, { code: '40404', msg: 'Request URL NOT FOUND', data: null });
      requests.push({ account: who.account, path: url.pathname });
      // The docs' example's fields (https://www.bitget.com/api-doc/spot/account/Get-Account-Info), regisTime the
      // account's.
      return send(
        res,
        200,
        ok({
          userId: '1234567890',
          inviterId: '0',
          ips: '',
          authorities: ['readonly'],
          parentId: 1234567890,
          traderType: 'not_trader',
          channelCode: '',
          channel: '',
          regisTime: String(who.registeredAt),
        }),
      );
    }
    const endpoint = ENDPOINTS.find((e) => e.path === url.pathname);
    if (req.method !== 'GET' || endpoint === undefined)
      return send(res, 404, { code: '40404', msg: 'Request URL NOT FOUND', data: null });
    const who = served.get(String(req.headers['access-key'] ?? ''));
    if (who === undefined) return send(res, 400, { code: '40037', msg: 'Apikey does not exist', data: null });
    requests.push({ account: who.account, path: endpoint.path });
    const rows = who.byPath.get(endpoint.path) ?? [];
    const q = url.searchParams;
    if (endpoint.shape === 'whole') {
      if (rows.length === 0) return send(res, 404, { code: '40404', msg: 'Request URL NOT FOUND', data: null });
      return send(res, 200, ok((rows[0] as { record: Row }).record));
    }
    if (endpoint.shape === 'snapshot') {
      const part =
        endpoint.partitionParam === undefined
          ? undefined
          : (q.get(endpoint.partitionParam) ?? endpoint.defaultPartition);
      return send(res, 200, ok(rows.filter((r) => part === undefined || r.partition === part).map((r) => r.record)));
    }
    const missing = (endpoint.filters ?? []).find((f) => (q.get(f) ?? '') === '');
    if (missing !== undefined)
      return send(res, 400, { code: '40019', msg: `Parameter ${missing} cannot be empty`, data: null });
    const start = Number(q.get('startTime') ?? 0);
    const end = Number(q.get('endTime') ?? Number.MAX_SAFE_INTEGER);
    // As the live service answered a window older than its reach (ccxt/ccxt#21502; docs/history.md).
    if (options.reachFrom !== undefined && start < options.reachFrom)
      return send(res, 400, {
        code: '43111',
        msg: 'param error time range illegal',
        requestTime: Date.now(),
        data: null,
      });
    const partition =
      endpoint.partitionParam === undefined ? '' : (q.get(endpoint.partitionParam) ?? endpoint.defaultPartition ?? '');
    const below = q.get(endpoint.cursorParam ?? 'idLessThan');
    const limit = Number(q.get('limit') ?? 20);
    const page = rows
      .filter((r) => r.partition === (endpoint.partitionParam === undefined ? r.partition : partition))
      .map((r) => r.record)
      .filter((r) => timeOf(r) >= start && timeOf(r) <= end)
      .filter((r) => (endpoint.filters ?? []).every((f) => r[f] === q.get(f)))
      .filter((r) => below === null || BigInt(String(r[endpoint.key])) < BigInt(below))
      .sort(byIdDescending(endpoint.key))
      .slice(0, limit);
    const last = page.at(-1)?.[endpoint.key];
    if (endpoint.shape === 'fills')
      return send(res, 200, ok({ fillList: page, endId: last === undefined ? '' : String(last) }));
    if (endpoint.shape === 'adverts')
      return send(res, 200, ok({ advList: page, minAdvId: last === undefined ? '' : String(last) }));
    if (endpoint.shape === 'list')
      return send(res, 200, ok({ list: page, cursor: last === undefined ? '' : String(last) }));
    if (endpoint.shape === 'profitList')
      return send(res, 200, ok({ profitList: page, endId: last === undefined ? '' : String(last) }));
    return send(res, 200, ok(page));
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
