import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { canonicalQuery, sign } from '../src/http/signing.js';

const DAY_MS = 86_400_000;
/** The data range the child simulator is started with; every request window lies inside it. */
const RANGE_FROM = Date.UTC(2025, 0, 1);
const RANGE_DAYS = 365;

export interface SimThroughputOptions {
  /** How long requests are counted, in ms (default 5000). */
  durationMs?: number;
  /** How long requests run before counting starts, in ms (default 1000): JIT, sockets and caches warm up. */
  warmupMs?: number;
  /** Sockets in the undici pool (default 32). */
  connections?: number;
  /** Requests kept in flight at once (default: one per connection, since pipelining is 1). */
  inFlight?: number;
  /** `--records` of the simulator (default 20 000). */
  records?: number;
  /** `--rate-scale` of the simulator (default 1000). */
  rateScale?: number;
  /** One margin-record request in every `marginEvery` (default 10): its limit is a tenth of the others'. */
  marginEvery?: number;
  /** How long the simulator may take to print its first line, in ms (default 30 000). */
  startTimeoutMs?: number;
  /** Ends the measurement early (the child is still stopped). */
  signal?: AbortSignal;
}

export interface SimThroughputResult {
  /** Valid 200 answers (JSON with code "00000") per second of the measured window. */
  requestsPerSecond: number;
  /** Every answer completed in the measured window, whatever its status. */
  requests: number;
  /** Answers per HTTP status; `error` counts requests that got no HTTP answer at all. */
  byStatus: Record<string, number>;
  /** 429 answers: the simulator's rate limits, reported apart because they mean the mix is too fast. */
  rateLimited: number;
  /** 200 answers whose body was not JSON with code "00000". */
  invalidBodies: number;
  /** Latency percentiles of the answers in the measured window, ms. */
  p50Ms: number;
  p99Ms: number;
  /** Length of the measured window, s. */
  seconds: number;
  /** CPU time of the load generator (this process) per wall-clock second, in % of one core. */
  clientCpuPercent: number;
}

/** What the simulator prints as its first stdout line. */
interface SimInfo {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

interface PlannedRequest {
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
function buildPlan(marginEvery: number): PlannedRequest[] {
  const fills = windows(7, 7).map((w) =>
    planned('/api/v2/mix/order/fill-history', { ...w, limit: '100', productType: 'USDT-FUTURES' }),
  );
  const withdrawals = windows(90, 7).map((w) => planned('/api/v2/spot/wallet/withdrawal-records', { ...w, limit: '100' }));
  const margins = windows(30, 15).map((w) => planned('/api/v2/tax/margin-record', { ...w, limit: '500', marginType: 'crossed' }));
  const plan: PlannedRequest[] = [];
  const counts = { fill: 0, withdrawal: 0, margin: 0 };
  // Long enough that every window of every kind comes up several times before the plan repeats.
  for (let i = 0; i < 40 * fills.length; i++) {
    if (i % marginEvery === marginEvery - 1) plan.push(margins[counts.margin++ % margins.length] as PlannedRequest);
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
    'ACCESS-SIGN': sign(info.secretKey, { timestamp, method: 'GET', requestPath: request.path, queryString: request.query }),
    'ACCESS-TIMESTAMP': timestamp,
    'ACCESS-PASSPHRASE': info.passphrase,
    'Content-Type': 'application/json',
    locale: 'en-US',
  };
}

interface SimChild {
  child: ChildProcess;
  info: SimInfo;
}

/** The last few KiB of the child's stderr, for error messages when it fails to start. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4096);
  });
  return () => tail.trim();
}

/**
 * Spawns `ledgerpipe sim` as a separate process, so that the server and the load generator each get their
 * own event loop (and, on a multi-core machine, their own core), and resolves once it has printed its
 * credentials.
 */
async function spawnSimulator(options: { records: number; rateScale: number; startTimeoutMs: number }): Promise<SimChild> {
  const main = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  const args = [main, 'sim', '--rate-scale', String(options.rateScale), '--records', String(options.records), '--seed', 'bench'];
  // --host is the default, but a benchmark must never listen beyond loopback, so it is spelled out.
  args.push('--from', '2025-01-01', '--to', '2026-01-01', '--port', '0', '--host', '127.0.0.1');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = stderrTail(child);
  try {
    const line = await firstLine(child, options.startTimeoutMs, tail);
    const info = JSON.parse(line) as SimInfo;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(info.baseUrl)) throw new Error(`simulator is not on loopback: ${info.baseUrl}`);
    return { child, info };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Resolves with the first stdout line; rejects if the child exits or stays silent for `timeoutMs`. */
function firstLine(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const done = (error: Error | undefined, line?: string): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining stdout so a chatty child can never block on a full pipe.
      child.stdout?.resume();
      if (error === undefined) resolve(line as string);
      else reject(error);
    };
    const onData = (chunk: string): void => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end >= 0) done(undefined, buffer.slice(0, end));
    };
    const onExit = (code: number | null, signal: string | null): void =>
      done(new Error(`simulator exited (${signal ?? code}) before printing its address: ${stderr()}`));
    const onError = (error: Error): void => done(error);
    const timer = setTimeout(() => done(new Error(`simulator printed nothing within ${timeoutMs} ms: ${stderr()}`)), timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** SIGTERM, then SIGKILL if the child is still there after 2 s; resolves once it has exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/** Tallies of the measured window; the hot loop only adds to it. */
interface Tally {
  byStatus: Record<string, number>;
  invalidBodies: number;
  valid: number;
  latencies: number[];
}

/** Whether a 200 body is the platform's success envelope. */
function isSuccessBody(text: string): boolean {
  try {
    return (JSON.parse(text) as { code?: unknown }).code === '00000';
  } catch {
    return false;
  }
}

interface LoadOptions {
  pool: Pool;
  info: SimInfo;
  plan: PlannedRequest[];
  inFlight: number;
  /** performance.now() values: answers completed in [measureFrom, measureTo) are counted. */
  measureFrom: number;
  measureTo: number;
  signal: AbortSignal | undefined;
}

/**
 * Runs `inFlight` request loops until `measureTo`. Every loop takes the next planned request, so the mix
 * stays the planned one whatever the answer times are.
 */
async function drive(options: LoadOptions): Promise<Tally> {
  const tally: Tally = { byStatus: {}, invalidBodies: 0, valid: 0, latencies: [] };
  let next = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < options.measureTo && options.signal?.aborted !== true) {
      const request = options.plan[next++ % options.plan.length] as PlannedRequest;
      const started = performance.now();
      let status: string;
      let valid = false;
      try {
        const response = await options.pool.request({ path: request.url, method: 'GET', headers: signedHeaders(options.info, request) });
        const text = await response.body.text();
        status = String(response.statusCode);
        valid = response.statusCode === 200 && isSuccessBody(text);
      } catch {
        status = 'error';
      }
      const ended = performance.now();
      if (ended < options.measureFrom || ended >= options.measureTo) continue;
      tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
      tally.latencies.push(ended - started);
      if (valid) tally.valid++;
      else if (status === '200') tally.invalidBodies++;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, loop));
  return tally;
}

/** The `q`-quantile of `sorted` (nearest rank), 0 for none. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/**
 * Measures how many signed record requests per second the simulator answers at `--rate-scale 1000`: starts
 * `ledgerpipe sim` as a child process on 127.0.0.1, drives it with an undici pool for a warm-up and then a
 * fixed measured window, and always stops the child, whatever happens.
 *
 * @example
 * const result = await measureSimThroughput({ durationMs: 2000 });
 * // result.requestsPerSecond, result.p99Ms, result.byStatus['429']
 */
export async function measureSimThroughput(options: SimThroughputOptions = {}): Promise<SimThroughputResult> {
  const durationMs = options.durationMs ?? 5000;
  const warmupMs = options.warmupMs ?? 1000;
  const connections = options.connections ?? 32;
  const inFlight = options.inFlight ?? connections;
  const { child, info } = await spawnSimulator({
    records: options.records ?? 20_000,
    rateScale: options.rateScale ?? 1000,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
  });
  // Timeouts well under the run's length: a server that hangs must fail the benchmark, not stall it.
  const pool = new Pool(info.baseUrl, { connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  try {
    const measureFrom = performance.now() + warmupMs;
    const measureTo = measureFrom + durationMs;
    const cpuBefore = process.cpuUsage();
    const tally = await drive({ pool, info, plan: buildPlan(options.marginEvery ?? 10), inFlight, measureFrom, measureTo, signal: options.signal });
    const cpu = process.cpuUsage(cpuBefore);
    // A cut-short window is not a figure anyone should compare against a target.
    options.signal?.throwIfAborted();
    const seconds = durationMs / 1000;
    const latencies = tally.latencies.sort((a, b) => a - b);
    return {
      requestsPerSecond: Math.round(tally.valid / seconds),
      requests: latencies.length,
      byStatus: tally.byStatus,
      rateLimited: tally.byStatus['429'] ?? 0,
      invalidBodies: tally.invalidBodies,
      p50Ms: round(quantile(latencies, 0.5), 2),
      p99Ms: round(quantile(latencies, 0.99), 2),
      seconds,
      // CPU over warm-up plus measurement, as a share of one core: near 100 means the client is the limit.
      clientCpuPercent: Math.round((100 * (cpu.user + cpu.system)) / 1000 / (warmupMs + durationMs)),
    };
  } finally {
    await pool.destroy();
    await stopChild(child);
  }
}
