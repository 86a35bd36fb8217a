import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SimInfo } from './sim-load.js';

/** The last few KiB of the child's stderr, for error messages when it fails to start. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4096);
  });
  return () => tail.trim();
}

/** Resolves with the first stdout line; rejects if the child exits, fails to spawn or stays silent too long. */
function firstLine(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const done = (error: Error | undefined, line?: string): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining stdout so that the child can never block on a full pipe.
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
    const timer = setTimeout(
      () => done(new Error(`simulator printed nothing within ${timeoutMs} ms: ${stderr()}`)),
      timeoutMs,
    );
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** The breaches of the per-IP cap a stopped simulator counted (its last line on stderr says them). */
export function ipBreachesOf(stderr: string): number {
  const match = /IP cap breaches (\d+)/.exec(stderr);
  if (match === null) throw new Error(`bench: the simulator did not say its IP cap breaches: ${stderr}`);
  return Number(match[1]);
}

/** SIGTERM, then SIGKILL if the child is still there after 2 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns `ledgerpipe sim` as a separate process, so that the server and the load generator never share an
 * event loop, and resolves once it has printed its address and credentials.
 */
export async function spawnSimulator(options: {
  records: number;
  rateScale: number;
  startTimeoutMs: number;
  seed?: string;
  from?: string;
  to?: string;
  /** --pending-seconds: how long withdrawals stay pending; the simulator's default when omitted. */
  pendingSeconds?: number;
  /** --accounts: how many accounts it serves (default 1). */
  accounts?: number;
  /** --front: its rate limits counted at a front door of their own (src/sim/front.ts). */
  front?: boolean;
}): Promise<{ child: ChildProcess; info: SimInfo; stderr: () => string }> {
  const main = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
  const args = [
    main,
    'sim',
    '--rate-scale',
    String(options.rateScale),
    '--records',
    String(options.records),
    '--seed',
    options.seed ?? 'bench',
  ];
  // --host is the default, but a benchmark must never listen beyond loopback, so it is spelled out.
  args.push(
    '--from',
    options.from ?? '2025-01-01',
    '--to',
    options.to ?? '2026-01-01',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
  );
  if (options.pendingSeconds !== undefined) args.push('--pending-seconds', String(options.pendingSeconds));
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  if (options.front === true) args.push('--front');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = stderrTail(child);
  try {
    const info = JSON.parse(await firstLine(child, options.startTimeoutMs, tail)) as SimInfo;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(info.baseUrl))
      throw new Error(`simulator is not on loopback: ${info.baseUrl}`);
    return { child, info, stderr: tail };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
