import { ARRIVAL_HEADER, REMOTE_HEADER, startFront, type Front } from './front.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SimApiError } from './api-error.js';
import { authenticate, type Credentials } from './auth.js';
import type { AccountType } from './data/accounts.js';
import { generateDataset } from './data/dataset.js';
import { generateRetailDataset } from './data/retail/dataset.js';
import { dropRecords } from './data/drop.js';
import { balanceEndpoints } from './endpoints/balances.js';
import type { Dataset, PagedStream } from './data/types.js';
import { createRng } from './data/rng.js';
import { accountInfoEndpoint } from './endpoints/account-info.js';
import { advListEndpoint } from './endpoints/adv-list.js';
import type { Endpoint, EndpointContext } from './endpoints/endpoint.js';
import { fillHistoryEndpoint } from './endpoints/fill-history.js';
import { DEFAULT_MARKETS, historyCandlesEndpoint, type CandleEndTime, type SimMarket } from './endpoints/candles.js';
import { marginRecordEndpoint } from './endpoints/margin-record.js';
import { recordListEndpoint } from './endpoints/record-list.js';
import { pagedFacts } from './endpoints/stream-facts.js';
import { allAccountBalanceEndpoint, contractsEndpoint, publicTimeEndpoint } from './endpoints/simple.js';
import { withdrawalRecordsEndpoint } from './endpoints/withdrawal-records.js';
import {
  accountSettingsEndpoint,
  CLASSIC_REFUSED,
  copyEndpoints,
  leadTraderEndpoint,
  loanEndpoints,
  refusing,
  UNIFIED_REFUSED,
  utaBalanceEndpoints,
  utaFinancialRecordsEndpoints,
  utaTaxRecordsEndpoint,
} from './endpoints/uta.js';
import { generateUnifiedDataset } from './data/uta/dataset.js';
import { BAD_GATEWAY_HTML, createFaultPlan, type FaultKind } from './faults.js';
import { Params } from './params.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { PartitionIndex } from './store.js';

export interface SimulatorOptions {
  /**
   * Which account it serves (default `stress`): `retail`, a believable account registered about two years before
   * `from` and funded by its own records (src/sim/data/retail/), or `stress`, the data set that breaks extractors,
   * sized by `records` (src/sim/data/dataset.ts).
   */
  dataset?: 'retail' | 'stress';
  /**
   * The kind of account it serves (default `classic`): `uta`, a unified trading account (src/sim/data/uta/), served on
   * the v3 endpoints, its key refused on the classic ones (40085) as a classic key is on the v3 ones (40084)
   * (docs/simulator.md, "A unified account"). Its data is served whatever `dataset` says;
   * `ledgerpipe sim` takes it only with the retail account, its default.
   */
  accountMode?: 'classic' | 'uta';
  /** Seed of the data, the credentials and the candles (default `retail` for the retail account, `1` for stress). */
  seed?: string;
  /** The range the data is generated around, Unix ms, half-open: the retail account's last year. */
  from: number;
  to: number;
  /**
   * Number of futures fills of the stress data set, the other streams sized from it (default 2000); not the retail
   * account's.
   */
  records?: number;
  /**
   * The account's registration, Unix ms, before every record (default: the retail account's own; `from` less 5 days for
   * stress).
   */
  openedAt?: number;
  /**
   * The retail account sells everything it holds but USDT before `to` and trades on no margin: its year's coins are
   * not in its balances at the end, nor listed by any balance endpoint (src/sim/data/retail/story.ts). Retail only.
   */
  soldOff?: boolean;
  /**
   * How many days back from its clock the record endpoints reach (default: no limit): an older startTime is refused
   * with 43111 "param error time range illegal" (src/sim/params.ts, checkDepth).
   */
  historyDepthDays?: number;
  /** Multiplies every rate limit (default 1). */
  rateScale?: number;
  /** Share of requests that fail (default 0). */
  faults?: number;
  /** The margin-record window in days (default 366; the live docs say 30). */
  marginWindowDays?: number;
  /** How long withdrawals of the range's last day stay pending after start, in ms (default 120 000). */
  pendingMs?: number;
  /** How long a stalled request is held before its connection is dropped, in ms (default 30 000). */
  stallMs?: number;
  /** The server's clock (default Date.now): tests move it to check the 30 s timestamp rule. */
  clock?: () => number;
  /**
   * Take requests in through a front door of their own (a worker thread, src/sim/front.ts) that stamps when each
   * arrives, so that the rate limits count arrivals however busy the simulator is. Only with the default clock.
   */
  front?: boolean;
  /** Credentials it accepts (default: derived from the seed). */
  credentials?: Credentials;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** The pairs it serves candles for (default DEFAULT_MARKETS). */
  markets?: readonly SimMarket[];
  /**
   * How history-candles reads `endTime` (docs/platform.md, "Prices"): `open-before` (default) serves the candles
   * that open before it; `closed-before` those complete before it (open + granularity <= endTime). The docs'
   * wording allows both.
   */
  candleEndTime?: CandleEndTime;
  /** Hours (their open, Unix ms) whose candle it never serves, per symbol: a platform's own gaps. */
  missingCandles?: Readonly<Record<string, readonly number[]>>;
  /**
   * How many accounts it serves (default 1), each with its own key and data: the first is `default` with
   * `credentials` and the seed's data, the n-th (n from 2) `acct-nnn` with a key and data of its own seed.
   */
  accounts?: number;
  /**
   * Requests a minute one IP address may send over every key and endpoint (default 6,000, the live cap; scaled
   * by rateScale). Going over blocks the address for five minutes (scaled), every request answered 429.
   */
  ipLimitPerMinute?: number;
  /**
   * Records to leave out of the answers (default 0), while the balances and running balances still count them
   * (src/sim/data/drop.ts says which); the dataset lists them in `dropped`.
   */
  dropRecords?: number;
  /** Account types whose balance endpoint answers 40014, as for a key without that permission. */
  unavailable?: readonly AccountType[];
  /** Where log lines go (default: nowhere). */
  log?: (line: string) => void;
  /** Told of every request to a served path, before it is answered (tests use it to see what was asked). */
  onRequest?: (request: { path: string; query: URLSearchParams; apiKey: string | undefined }) => void;
}

export interface SimulatorStats {
  requests: number;
  /** Requests per path that reached a served endpoint, whatever the answer. */
  byPath: Record<string, number>;
  /** Answers per HTTP status, 429s and injected faults included. */
  byStatus: Record<number, number>;
  faults: Record<FaultKind, number>;
  /** Injected faults per path. */
  faultsByPath: Record<string, number>;
  /** Times an address went over the per-IP cap and was blocked. */
  ipBreaches: number;
  /** Requests answered 429 because their address was blocked. */
  ipBlocked: number;
}

/** One account the simulator serves. */
export interface SimAccount {
  name: string;
  credentials: Credentials;
  dataset: Dataset;
}

export interface Simulator {
  baseUrl: string;
  /** The first account's: `accounts[0]`. */
  credentials: Credentials;
  dataset: Dataset;
  accounts: readonly SimAccount[];
  stats: SimulatorStats;
  /** Stops listening and drops every open connection, stalled ones included. */
  close(): Promise<void>;
}

/** Demo credentials derived from the seed: stable across runs, different per seed. */
export function seedCredentials(seed: string): Credentials {
  const rng = createRng(`ledgerpipe-sim-credentials:${seed}`);
  return { apiKey: `bg_${rng.hex(32)}`, secretKey: rng.hex(64), passphrase: `Sim${rng.hex(12)}` };
}

function indexes(dataset: Dataset, stream: PagedStream): Map<string, PartitionIndex> {
  return new Map(dataset.streams[stream].map((p) => [p.name, new PartitionIndex(p)]));
}

/** What the simulator's endpoints are built from: its seed, rules, candles and the balances it refuses. */
interface EndpointOptions {
  seed: string;
  marginWindowDays: number;
  depthDays: number | undefined;
  markets: readonly SimMarket[];
  unavailable?: readonly AccountType[] | undefined;
  candles: { endTime: CandleEndTime; missing: Readonly<Record<string, readonly number[]>> };
}

function buildEndpoints(account: { seed: string; dataset: Dataset }, options: EndpointOptions): Endpoint[] {
  const { dataset } = account;
  // A unified account's endpoints are the v3 ones (docs/unified-accounts.md): the platform refuses each kind's keys on
  // the other kind's endpoints, so every account is answered on both, by its own or with the refusal.
  const unified = unifiedEndpoints(account, options.depthDays);
  const classic = classicEndpoints(account, options);
  const isUnified = dataset.accountMode === 'uta';
  return [
    ...(isUnified ? classic.map((e) => (e.signed ? refusing(e, UNIFIED_REFUSED) : e)) : classic),
    ...(isUnified ? unified : unified.map((e) => refusing(e, CLASSIC_REFUSED))),
  ];
}

/** A unified account's endpoints (the v3 ones, docs/unified-accounts.md). */
function unifiedEndpoints(account: { seed: string; dataset: Dataset }, depthDays: number | undefined): Endpoint[] {
  const { dataset } = account;
  return [
    accountSettingsEndpoint(account.seed),
    utaTaxRecordsEndpoint(indexes(dataset, 'uta_tax_records'), { depthDays }),
    ...utaFinancialRecordsEndpoints(indexes(dataset, 'uta_financial_records'), { depthDays }),
    ...utaBalanceEndpoints(dataset),
    ...copyEndpoints(dataset, {
      transfers: indexes(dataset, 'copy_transfers'),
      shares: indexes(dataset, 'copy_profit_shares'),
    }),
    loanEndpoints(dataset).unified,
  ];
}

/** A classic account's endpoints (the v2 ones), the public ones included. */
function classicEndpoints(account: { seed: string; dataset: Dataset }, options: EndpointOptions): Endpoint[] {
  const { dataset } = account;
  const { marginWindowDays, depthDays } = options;
  const single = (stream: PagedStream): PartitionIndex => indexes(dataset, stream).get('') as PartitionIndex;
  return [
    marginRecordEndpoint(indexes(dataset, 'margin_records'), marginWindowDays, { depthDays }),
    fillHistoryEndpoint(indexes(dataset, 'futures_fills'), { depthDays }),
    withdrawalRecordsEndpoint(single('withdrawals'), { depthDays }),
    advListEndpoint(indexes(dataset, 'p2p_advertisements')),
    recordListEndpoint(
      {
        ...pagedFacts('deposits'),
        style: 'exceed',
        pageDefault: 20,
        filters: { coin: 'coin', orderId: 'orderId' },
        depthDays,
      },
      indexes(dataset, 'deposits'),
    ),
    recordListEndpoint(
      {
        ...pagedFacts('futures_tax_records'),
        style: 'interval',
        pageDefault: 500,
        partitionParam: 'productType',
        filters: { marginCoin: 'marginCoin' },
        depthDays,
      },
      indexes(dataset, 'futures_tax_records'),
    ),
    recordListEndpoint(
      {
        ...pagedFacts('spot_tax_records'),
        style: 'interval',
        pageDefault: 500,
        filters: { coin: 'coin' },
        depthDays,
      },
      indexes(dataset, 'spot_tax_records'),
    ),
    recordListEndpoint(
      { ...pagedFacts('p2p_tax_records'), style: 'interval', pageDefault: 500, filters: { coin: 'coin' }, depthDays },
      indexes(dataset, 'p2p_tax_records'),
    ),
    allAccountBalanceEndpoint(dataset.balances),
    leadTraderEndpoint(),
    loanEndpoints(dataset).classic,
    accountInfoEndpoint({ seed: account.seed, openedAt: dataset.openedAt }),
    ...balanceEndpoints(dataset, { unavailable: options.unavailable }),
    contractsEndpoint(),
    publicTimeEndpoint(),
    historyCandlesEndpoint(options.seed, options.markets, options.candles),
  ];
}

const errorBody = (code: string, msg: string, now: number): string =>
  `{"code":${JSON.stringify(code)},"msg":${JSON.stringify(msg)},"requestTime":${now},"data":null}`;

/** What the simulator's request handler works with: the data, the rules, and what it has counted. */
interface SimState {
  clock: () => number;
  /** Requests come through the front: their arrival time and address are in its headers. */
  front: boolean;
  startedAt: number;
  /** The first account's endpoints: what is served, and the public data. */
  endpoints: ReadonlyMap<string, Endpoint>;
  /** Every account's endpoints, by API key. */
  endpointsByKey: ReadonlyMap<string, ReadonlyMap<string, Endpoint>>;
  limiters: ReadonlyMap<string, SlidingWindowLimiter>;
  accounts: ReadonlyMap<string, Credentials>;
  /** The cap per IP address over every key and endpoint, a minute's window. */
  ipLimiter: SlidingWindowLimiter;
  /** Blocked addresses and until when. */
  ipBlocked: Map<string, number>;
  ipBanMs: number;
  nextFault: () => FaultKind | undefined;
  emptyRng: ReturnType<typeof createRng>;
  pendingMs: number;
  stallMs: number;
  /** Timers of stalled requests, cleared on close. */
  stalled: Set<NodeJS.Timeout>;
  stats: SimulatorStats;
  log: ((line: string) => void) | undefined;
  onRequest: SimulatorOptions['onRequest'];
}

/** The live cap per IP address, over every key and endpoint (docs/platform.md, "Answers and errors"). */
export const LIVE_IP_LIMIT_PER_MINUTE = 6000;
/** How long the live service blocks an address that went over its cap. */
const IP_BAN_MS = 300_000;

/** The name and data seed of the simulator's i-th account (from 0): `default` and the seed, then `acct-002`... */
export function simAccountOf(seed: string, i: number): { name: string; seed: string } {
  if (i === 0) return { name: 'default', seed };
  const name = `acct-${String(i + 1).padStart(3, '0')}`;
  return { name, seed: `${seed}:${name}` };
}

/** The seed a simulator runs on: the one given, else `retail` for the retail account and `1` for stress. */
export function simSeed(options: Pick<SimulatorOptions, 'dataset' | 'seed'>): string {
  return options.seed ?? (options.dataset === 'retail' ? 'retail' : '1');
}

/**
 * The data of one account of its seed: the retail account or the stress data set, every trade at the candles of
 * `priceSeed`.
 */
function accountData(options: SimulatorOptions, seed: string, priceSeed: string, marginWindowDays: number): Dataset {
  const openedAt = options.openedAt === undefined ? {} : { openedAt: options.openedAt };
  if (options.accountMode === 'uta')
    return generateUnifiedDataset({ seed, from: options.from, to: options.to, priceSeed, ...openedAt });
  if (options.dataset === 'retail')
    return generateRetailDataset({
      seed,
      from: options.from,
      to: options.to,
      priceSeed,
      ...openedAt,
      ...(options.soldOff === true ? { soldOff: true } : {}),
    });
  const { from, to, markets } = options;
  return generateDataset({
    seed,
    from,
    to,
    records: options.records ?? 2000,
    marginWindowDays,
    priceSeed,
    ...openedAt,
    ...(markets === undefined ? {} : { markets }),
  });
}

/** The accounts to serve: `default` with the given or seed's credentials, then `acct-002`... each of its own seed. */
function simAccounts(options: SimulatorOptions, marginWindowDays: number): (SimAccount & { seed: string })[] {
  const count = options.accounts ?? 1;
  const root = simSeed(options);
  return Array.from({ length: count }, (_, i) => {
    const { name, seed } = simAccountOf(root, i);
    return {
      name,
      seed,
      credentials: i === 0 ? (options.credentials ?? seedCredentials(seed)) : seedCredentials(seed),
      dataset: dropRecords(accountData(options, seed, root, marginWindowDays), options.dropRecords ?? 0),
    };
  });
}

/**
 * Starts the simulated platform on loopback. Everything it serves is generated up front from the seed; a
 * request costs a binary search and a string join.
 *
 * @example
 * const sim = await startSimulator({ seed: '1', from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1), records: 2000 });
 * // ... point a client at sim.baseUrl with sim.credentials
 * await sim.close();
 * // The believable account, registered about two years before its last year:
 * const retail = await startSimulator({ dataset: 'retail', from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1) });
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const clock = options.clock ?? Date.now;
  const rateScale = options.rateScale ?? 1;
  const marginWindowDays = options.marginWindowDays ?? 366;
  const seed = simSeed(options);
  const accounts = simAccounts(options, marginWindowDays);
  const endpointOptions = {
    seed,
    marginWindowDays,
    depthDays: options.historyDepthDays,
    markets: options.markets ?? DEFAULT_MARKETS,
    unavailable: options.unavailable,
    candles: { endTime: options.candleEndTime ?? 'open-before', missing: options.missingCandles ?? {} },
  };
  const endpointsByKey = new Map(
    accounts.map((a) => [a.credentials.apiKey, new Map(buildEndpoints(a, endpointOptions).map((e) => [e.path, e]))]),
  );
  const endpoints = endpointsByKey.get(accounts[0]!.credentials.apiKey)!;
  if (options.front === true && options.clock !== undefined)
    throw new RangeError("the simulator's front stamps arrivals by the real clock: give no clock with it");
  const state = simState(options, { clock, seed, rateScale, endpoints, endpointsByKey, accounts });
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => handle(state, req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  const { baseUrl, front } = await listen(server, options);
  options.log?.(`sim: listening on ${baseUrl}`);
  return {
    baseUrl,
    credentials: accounts[0]!.credentials,
    dataset: accounts[0]!.dataset,
    accounts: accounts.map(({ name, credentials, dataset }) => ({ name, credentials, dataset })),
    stats: state.stats,
    close: async () => {
      for (const timer of state.stalled) clearTimeout(timer);
      state.stalled.clear();
      await front?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** The request handler's state at the start: the endpoints, their limiters and the IP's, the faults, no stats yet. */
function simState(
  options: SimulatorOptions,
  built: {
    clock: () => number;
    seed: string;
    rateScale: number;
    endpoints: SimState['endpoints'];
    endpointsByKey: SimState['endpointsByKey'];
    accounts: readonly SimAccount[];
  },
): SimState {
  const { clock, seed, rateScale, endpoints, endpointsByKey, accounts } = built;
  return {
    clock,
    front: options.front === true,
    startedAt: clock(),
    endpoints,
    endpointsByKey,
    limiters: new Map(
      [...endpoints.values()].flatMap((e) =>
        e.rate === undefined ? [] : [[e.path, new SlidingWindowLimiter(e.rate * rateScale)] as const],
      ),
    ),
    accounts: new Map(accounts.map((a) => [a.credentials.apiKey, a.credentials])),
    // At --rate-scale S the minute is S times shorter, the cap the same: the rate is S times the live one.
    ipLimiter: new SlidingWindowLimiter(
      ((options.ipLimitPerMinute ?? LIVE_IP_LIMIT_PER_MINUTE) * rateScale) / 60,
      60 / rateScale,
    ),
    ipBlocked: new Map(),
    ipBanMs: IP_BAN_MS / rateScale,
    nextFault: createFaultPlan(seed, options.faults ?? 0),
    emptyRng: createRng(`ledgerpipe-sim-empty:${seed}`),
    pendingMs: options.pendingMs ?? 120_000,
    stallMs: options.stallMs ?? 30_000,
    stalled: new Set(),
    stats: {
      requests: 0,
      byPath: {},
      byStatus: {},
      faults: { http500: 0, http502: 0, reset: 0, truncate: 0, stall: 0 },
      faultsByPath: {},
      ipBreaches: 0,
      ipBlocked: 0,
    },
    log: options.log,
    onRequest: options.onRequest,
  };
}

/**
 * Listens where the options say; with a front, the simulator on a free loopback port and the front where it was
 * asked to. Returns the address clients use, and the front to close.
 */
async function listen(
  server: Server,
  options: SimulatorOptions,
): Promise<{ baseUrl: string; front: Front | undefined }> {
  // Behind a front, the simulator itself listens on a free loopback port and the front where it was asked to.
  const own =
    options.front === true
      ? { host: '127.0.0.1', port: 0 }
      : { host: options.host ?? '127.0.0.1', port: options.port ?? 0 };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(own.port, own.host, () => resolve());
  });
  const inner = server.address() as AddressInfo;
  const front =
    options.front === true
      ? await startFront(
          { host: options.host ?? '127.0.0.1', port: options.port ?? 0 },
          { host: '127.0.0.1', port: inner.port },
        )
      : undefined;
  const address =
    front === undefined
      ? inner
      : {
          ...inner,
          address: options.host ?? '127.0.0.1',
          family: (options.host ?? '').includes(':') ? 'IPv6' : 'IPv4',
          port: front.port,
        };
  const baseUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return { baseUrl, front };
}

/** One request: only GET of a known path; signed ones authenticated and rate limited; now and then a fault. */
function handle(state: SimState, req: IncomingMessage, res: ServerResponse): void {
  // Behind the front, a request counts from when it arrived there, and from the address it came from.
  const now = state.front ? Number(req.headers[ARRIVAL_HEADER]) : state.clock();
  const remote = state.front ? String(req.headers[REMOTE_HEADER] ?? '') : (req.socket.remoteAddress ?? '');
  state.stats.requests++;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const rawQuery = q < 0 ? '' : url.slice(q + 1);
  // Only GET is served: the platform's record endpoints are reads, and ledgerpipe never writes.
  const endpoint = req.method === 'GET' ? state.endpoints.get(path) : undefined;
  if (endpoint === undefined) return send(state, res, 404, errorBody('40404', 'Request URL NOT FOUND', now));
  state.stats.byPath[path] = (state.stats.byPath[path] ?? 0) + 1;
  state.onRequest?.({
    path,
    query: new URLSearchParams(rawQuery),
    apiKey: req.headers['access-key'] as string | undefined,
  });
  const headers: Record<string, string> = {};
  if (!admitIp(state, remote, now)) return send(state, res, 429, errorBody('429', 'Too Many Requests', now));
  if (endpoint.perIp === true) {
    const limiter = state.limiters.get(path);
    if (limiter !== undefined && !limiter.tryAcquire(`ip:${remote}`, now).admitted) {
      return send(state, res, 429, errorBody('429', 'Too Many Requests', now), headers);
    }
  }
  if (endpoint.signed) {
    let key: string;
    try {
      key = authenticate({ method: 'GET', path, rawQuery, headers: req.headers }, state.accounts, now);
    } catch (error) {
      const e = error as SimApiError;
      return send(state, res, e.status, errorBody(e.code, e.message, now));
    }
    const limiter = state.limiters.get(path);
    if (limiter !== undefined) {
      const { admitted, remaining } = limiter.tryAcquire(key, now);
      headers['x-mbx-used-remain-limit'] = String(remaining);
      if (!admitted) return send(state, res, 429, errorBody('429', 'Too Many Requests', now), headers);
    }
    return serve(state, res, state.endpointsByKey.get(key)?.get(path) ?? endpoint, rawQuery, now, headers);
  }
  serve(state, res, endpoint, rawQuery, now, headers);
}

/**
 * The per-IP cap, as the live service keeps it: every request of a served path counts, whatever its key; going
 * over blocks the address for five minutes (scaled), in which every request is answered 429.
 */
function admitIp(state: SimState, ip: string, now: number): boolean {
  const blockedUntil = state.ipBlocked.get(ip);
  if (blockedUntil !== undefined && now < blockedUntil) {
    state.stats.ipBlocked++;
    return false;
  }
  if (state.ipLimiter.tryAcquire(ip, now).admitted) return true;
  state.stats.ipBreaches++;
  state.stats.ipBlocked++;
  state.ipBlocked.set(ip, now + state.ipBanMs);
  state.log?.(`sim: ${ip} went over ${state.ipLimiter.capacity} requests a minute: blocked for ${state.ipBanMs} ms`);
  return false;
}

/** The answer of an admitted request, or now and then a fault instead. */
function serve(
  state: SimState,
  res: ServerResponse,
  endpoint: Endpoint,
  rawQuery: string,
  now: number,
  headers: Record<string, string>,
): void {
  const fault = state.nextFault();
  if (fault !== undefined) return fail(state, res, fault, endpoint, rawQuery, now);
  const { status, body } = answer(state, endpoint, rawQuery, now);
  send(state, res, status, body, headers);
}

function send(
  state: SimState,
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  state.stats.byStatus[status] = (state.stats.byStatus[status] ?? 0) + 1;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The endpoint's answer in the platform's envelope, or its error as the platform writes it. */
function answer(state: SimState, endpoint: Endpoint, rawQuery: string, now: number): { status: number; body: string } {
  const context: EndpointContext = {
    params: new Params(rawQuery),
    now,
    moved: state.clock() - state.startedAt >= state.pendingMs,
    emptyAsNull: () => state.emptyRng.chance(0.3),
  };
  try {
    return {
      status: 200,
      body: `{"code":"00000","msg":"success","requestTime":${now},"data":${endpoint.handle(context)}}`,
    };
  } catch (error) {
    if (error instanceof SimApiError) return { status: error.status, body: errorBody(error.code, error.message, now) };
    state.log?.(`sim: internal error on ${endpoint.path}: ${String(error)}`);
    return { status: 500, body: errorBody('40015', 'System is abnormal, please try again later', now) };
  }
}

/** Answers with a fault instead: a 500 or 502, a reset, a body cut half way, or a request left hanging. */
function fail(
  state: SimState,
  res: ServerResponse,
  kind: FaultKind,
  endpoint: Endpoint,
  rawQuery: string,
  now: number,
): void {
  state.stats.faults[kind]++;
  state.stats.faultsByPath[endpoint.path] = (state.stats.faultsByPath[endpoint.path] ?? 0) + 1;
  switch (kind) {
    case 'http500':
      return send(state, res, 500, errorBody('40015', 'System is abnormal, please try again later', now));
    case 'http502':
      state.stats.byStatus[502] = (state.stats.byStatus[502] ?? 0) + 1;
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(BAD_GATEWAY_HTML) });
      res.end(BAD_GATEWAY_HTML);
      return;
    case 'reset':
      res.socket?.resetAndDestroy();
      return;
    case 'truncate': {
      // A complete HTTP answer whose JSON stops half way, as a proxy that lost its upstream writes it.
      const { status, body } = answer(state, endpoint, rawQuery, now);
      return send(state, res, status, body.slice(0, Math.max(1, Math.floor(body.length / 2))));
    }
    case 'stall': {
      const timer = setTimeout(() => {
        state.stalled.delete(timer);
        res.socket?.destroy();
      }, state.stallMs);
      state.stalled.add(timer);
      return;
    }
  }
}
