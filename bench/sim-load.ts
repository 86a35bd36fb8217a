import { Pool } from 'undici';
import { canonicalQuery, sign } from '../src/http/signing.js';

const DAY_MS = 86_400_000;
/** The data range the simulator is started with (bench/sim-throughput.ts); every window lies inside it. */
const RANGE_FROM = Date.UTC(2025, 0, 1);
const RANGE_DAYS = 365;

/** What `ledgerpipe sim` prints as its first stdout line. */
export interface SimInfo {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
  /** Every account it serves (`--accounts N`), the first the one above. */
  accounts: { name: string; apiKey: string; secretKey: string; passphrase: string }[];
}

export interface PlannedRequest {
  path: string;
  /** Canonical query: the same string goes on the URL and into the signature. */
  query: string;
  /** `path?query`, built once so that the hot loop does not concatenate. */
  url: string;
}

/** Windows of `days` days inside the range, starting every `step` days; the endpoints accept exactly `days`. */
function windows(days: number, step: number): { startTime: string; endTime: string }[] {
  const out: { startTime: string; endTime: string }[] = [];
  for (let offset = 0; offset + days <= RANGE_DAYS; offset += step) {
    const start = RANGE_FROM + offset * DAY_MS;
    out.push({ startTime: String(start), endTime: String(start + days * DAY_MS) });
  }
  return out;
}

function planned(path: string, params: Record<string, string>): PlannedRequest {
  const query = canonicalQuery(params);
  return { path, query, url: `${path}?${query}` };
}

/**
 * The requests the load generator cycles over, in a fixed order: one margin-record in every `marginEvery`,
 * the rest alternating fill-history and withdrawal-records, each kind walking its own windows through 2025
 * so that pages come from all over the data rather than one hot slice.
 */
export function buildPlan(options: { marginEvery: number }): PlannedRequest[] {
  const fills = windows(7, 7).map((w) =>
    planned('/api/v2/mix/order/fill-history', { ...w, limit: '100', productType: 'USDT-FUTURES' }),
  );
  const withdrawals = windows(90, 7).map((w) =>
    planned('/api/v2/spot/wallet/withdrawal-records', { ...w, limit: '100' }),
  );
  const margins = windows(30, 15).map((w) =>
    planned('/api/v2/tax/margin-record', { ...w, limit: '500', marginType: 'crossed' }),
  );
  const plan: PlannedRequest[] = [];
  const counts = { fill: 0, withdrawal: 0, margin: 0 };
  // Long enough that every window of every kind comes up several times before the plan repeats.
  for (let i = 0; i < 40 * fills.length; i++) {
    if (i % options.marginEvery === options.marginEvery - 1)
      plan.push(margins[counts.margin++ % margins.length] as PlannedRequest);
    else if (i % 2 === 0) plan.push(fills[counts.fill++ % fills.length] as PlannedRequest);
    else plan.push(withdrawals[counts.withdrawal++ % withdrawals.length] as PlannedRequest);
  }
  return plan;
}

/** Headers of one signed GET; the timestamp is taken now, so the server's 30 s rule always holds. */
function signedHeaders(info: SimInfo, request: PlannedRequest): Record<string, string> {
  const timestamp = String(Date.now());
  return {
    'ACCESS-KEY': info.apiKey,
    'ACCESS-SIGN': sign(info.secretKey, {
      timestamp,
      method: 'GET',
      requestPath: request.path,
      queryString: request.query,
    }),
    'ACCESS-TIMESTAMP': timestamp,
    'ACCESS-PASSPHRASE': info.passphrase,
    'Content-Type': 'application/json',
    locale: 'en-US',
  };
}

/**
 * Whether a 200 body is the platform's success envelope. A full JSON.parse of a 40-85 KB page is most of the
 * load generator's CPU time, which is why the load runs on several threads.
 */
function isSuccessBody(text: string): boolean {
  try {
    return (JSON.parse(text) as { code?: unknown }).code === '00000';
  } catch {
    return false;
  }
}

/** Wall-clock time in ms with sub-ms precision, comparable across worker threads (unlike performance.now()). */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export interface LoadOptions {
  info: SimInfo;
  plan: readonly PlannedRequest[];
  /** Sockets of this load generator's own pool. */
  connections: number;
  /** Request loops kept in flight; with pipelining 1, more than `connections` would only queue. */
  inFlight: number;
  /** Where in the plan this generator starts, so that parallel generators do not send the same page at once. */
  planOffset: number;
  /** {@link wallNow} values: answers completed in [measureFrom, measureTo) are counted; none start after. */
  measureFrom: number;
  measureTo: number;
}

/** Tallies of the measured window. Latencies are a Float64Array so that a worker can transfer, not copy, them. */
export interface LoadTally {
  byStatus: Record<string, number>;
  valid: number;
  invalidBodies: number;
  latencies: Float64Array<ArrayBuffer>;
}

/**
 * Drives the simulator from this thread until `measureTo`: `inFlight` loops, each taking the next planned
 * request, so the mix stays the planned one whatever the answer times are. Network errors count as status
 * `error`; they never end the run.
 */
export async function runLoad(options: LoadOptions): Promise<LoadTally> {
  // Timeouts well under the run's length: a server that hangs must fail requests, not stall the benchmark.
  const pool = new Pool(options.info.baseUrl, {
    connections: options.connections,
    pipelining: 1,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const byStatus: Record<string, number> = {};
  const latencies: number[] = [];
  let valid = 0;
  let invalidBodies = 0;
  let next = options.planOffset;
  const loop = async (): Promise<void> => {
    while (wallNow() < options.measureTo) {
      const request = options.plan[next++ % options.plan.length] as PlannedRequest;
      const started = wallNow();
      let status: string;
      let ok = false;
      try {
        const response = await pool.request({
          path: request.url,
          method: 'GET',
          headers: signedHeaders(options.info, request),
        });
        const text = await response.body.text();
        status = String(response.statusCode);
        ok = response.statusCode === 200 && isSuccessBody(text);
      } catch {
        status = 'error';
      }
      const ended = wallNow();
      if (ended < options.measureFrom || ended >= options.measureTo) continue;
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      latencies.push(ended - started);
      if (ok) valid++;
      else if (status === '200') invalidBodies++;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.inFlight }, loop));
  } finally {
    await pool.destroy();
  }
  return { byStatus, valid, invalidBodies, latencies: Float64Array.from(latencies) };
}
