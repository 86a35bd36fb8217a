import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildPlan, wallNow, type LoadOptions, type LoadTally } from './sim-load.js';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface SimThroughputOptions {
  /** How long answers are counted, in ms (default 5000). */
  durationMs?: number;
  /** How long requests run before counting starts, in ms (default 1000): JIT, sockets and caches warm up. */
  warmupMs?: number;
  /** Sockets in all, shared out among the load threads (default 32). */
  connections?: number;
  /**
   * Load-generator threads (default: the machine's cores, at most 4). Checking every body with JSON.parse
   * costs the client about twice what answering costs the server, so one thread cannot keep up with it.
   */
  threads?: number;
  /** `--records` of the simulator (default 20 000). */
  records?: number;
  /** `--rate-scale` of the simulator (default 1000). */
  rateScale?: number;
  /**
   * One margin-record request in every `marginEvery` (default 20): its limit is a tenth of the others'
   * (1,000/s at scale 1000), and 1 in 20 keeps it under that up to 20,000 req/s in all.
   */
  marginEvery?: number;
  /** How long the simulator may take to print its first line, in ms (default 30 000). */
  startTimeoutMs?: number;
  /** Ends the measurement early: the load threads and the child are stopped, and the call rejects. */
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
  /** Load-generator threads and sockets used. */
  threads: number;
  connections: number;
  /** CPU time per wall-clock second over the measured window, in % of one core, of this process (all threads). */
  clientCpuPercent: number;
  /** The same for the simulator process; absent where /proc is not available. */
  serverCpuPercent?: number;
}

/**
 * CPU seconds the process has used so far, from /proc/<pid>/stat; undefined off Linux. utime and stime are
 * in USER_HZ ticks, which Linux fixes at 100 for user space on every mainstream architecture.
 */
function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs one load generator on a worker thread; rejects if the thread fails or `signal` aborts. */
function runLoadThread(options: LoadOptions, signal: AbortSignal | undefined): Promise<LoadTally> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sim-load-worker.js', import.meta.url), { workerData: options });
    const onAbort = (): void => void worker.terminate();
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (tally: LoadTally) => resolve(tally));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort);
      // After a message this is a no-op; without one the thread died or was stopped.
      reject(new Error(`load thread exited with ${code} before reporting`));
    });
  });
}

function merge(tallies: readonly LoadTally[]): LoadTally {
  const byStatus: Record<string, number> = {};
  for (const tally of tallies) {
    for (const [status, count] of Object.entries(tally.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + count;
  }
  const latencies = new Float64Array(tallies.reduce((n, t) => n + t.latencies.length, 0));
  let at = 0;
  for (const tally of tallies) {
    latencies.set(tally.latencies, at);
    at += tally.latencies.length;
  }
  return {
    byStatus,
    valid: tallies.reduce((n, t) => n + t.valid, 0),
    invalidBodies: tallies.reduce((n, t) => n + t.invalidBodies, 0),
    latencies: latencies.sort(),
  };
}

/** The `q`-quantile of ascending `sorted` (nearest rank), 0 for none. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** Calls `sample` when the measured window opens and closes; `results()` gives what it returned at each. */
function sampleAt<T>(measureFrom: number, measureTo: number, sample: () => T): { results(): [T, T]; cancel(): void } {
  const taken: T[] = [];
  const timers = [measureFrom, measureTo].map((at) =>
    setTimeout(() => taken.push(sample()), Math.max(0, at - wallNow())),
  );
  return {
    results: () => [taken[0] as T, (taken[1] ?? sample()) as T],
    cancel: () => timers.forEach((timer) => clearTimeout(timer)),
  };
}

/**
 * Measures how many signed record requests per second the simulator answers at `--rate-scale 1000`: starts
 * `ledgerpipe sim` as a child process on 127.0.0.1, drives it from worker threads with undici pools for a
 * warm-up and then a fixed measured window, and always stops the child and the threads, whatever happens.
 *
 * @example
 * const result = await measureSimThroughput({ durationMs: 2000 });
 * // result.requestsPerSecond, result.p99Ms, result.rateLimited
 */
export async function measureSimThroughput(options: SimThroughputOptions = {}): Promise<SimThroughputResult> {
  const durationMs = options.durationMs ?? 5000;
  const warmupMs = options.warmupMs ?? 1000;
  const connections = options.connections ?? 32;
  const threads = options.threads ?? Math.min(4, availableParallelism());
  const perThread = Math.max(1, Math.round(connections / threads));
  const { child, info } = await spawnSimulator({
    records: options.records ?? 20_000,
    rateScale: options.rateScale ?? 1000,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
  });
  const abort = new AbortController();
  const onAbort = (): void => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    options.signal?.throwIfAborted();
    const plan = buildPlan({ marginEvery: options.marginEvery ?? 20 });
    // Thread start-up takes tens of ms, and the warm-up absorbs it: the window is fixed in wall-clock time.
    const measureFrom = wallNow() + warmupMs;
    const measureTo = measureFrom + durationMs;
    const cpu = sampleAt(measureFrom, measureTo, () => ({
      client: process.cpuUsage(),
      server: processCpuSeconds(child.pid),
    }));
    const loads = Array.from({ length: threads }, (_, thread) =>
      runLoadThread(
        {
          info,
          plan,
          connections: perThread,
          inFlight: perThread,
          planOffset: Math.floor((thread * plan.length) / threads),
          measureFrom,
          measureTo,
        },
        abort.signal,
      ),
    );
    // allSettled, so that the child is stopped only once no thread is still sending to it.
    const settled = await Promise.allSettled(loads);
    cpu.cancel();
    options.signal?.throwIfAborted();
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const tally = merge(settled.map((s) => (s as PromiseFulfilledResult<LoadTally>).value));
    const [before, after] = cpu.results();
    const clientUs = after.client.user + after.client.system - before.client.user - before.client.system;
    const seconds = durationMs / 1000;
    const serverSeconds =
      before.server !== undefined && after.server !== undefined ? after.server - before.server : undefined;
    return {
      requestsPerSecond: Math.round(tally.valid / seconds),
      requests: tally.latencies.length,
      byStatus: tally.byStatus,
      rateLimited: tally.byStatus['429'] ?? 0,
      invalidBodies: tally.invalidBodies,
      p50Ms: round(quantile(tally.latencies, 0.5), 2),
      p99Ms: round(quantile(tally.latencies, 0.99), 2),
      seconds,
      threads,
      connections: perThread * threads,
      clientCpuPercent: Math.round(clientUs / 10_000 / seconds),
      ...(serverSeconds === undefined ? {} : { serverCpuPercent: Math.round((100 * serverSeconds) / seconds) }),
    };
  } finally {
    abort.abort();
    options.signal?.removeEventListener('abort', onAbort);
    await stopChild(child);
  }
}
