import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

/** The built CLI, as the package's bin runs it (npm test builds before it runs vitest; scripts/bundle.ts). */
export const CLI = fileURLToPath(new URL('../../dist/ledgerpipe.js', import.meta.url));
/** The built modules of src/ (tsc's output), for a test that runs one of them in a process of its own. */
export const DIST_SRC = fileURLToPath(new URL('../../dist/src/', import.meta.url));

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end. */
export function runCliProcess(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  return runNodeProcess([CLI, ...args], options);
}

/** Runs node with `args` (node's own flags, then a script and its arguments) to its end. */
export async function runNodeProcess(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [status, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { status, signal, stdout, stderr };
}

/** In-process runs wait for each other: each holds process.env and the umask for its length. */
let hereQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs a command with the CLI's own code (src/cli/run.ts) in this process, as src/cli/main.ts runs it in its own:
 * the same exit status, and the lines it writes to stdout and stderr, captured. For tests whose subject is what a
 * command does to the warehouse and the files; what the process adds (main.ts: the umask, the allocator, a closed
 * pipe, a signal, a kill) is tested with runCliProcess. A process of its own cost 0.5 to 1.2 s of CPU per command
 * on top of its work, the start-up and code not yet compiled (docs/development.md, "Test time").
 *
 * `env` is the run's environment, set as process.env for its length (the commands read their credentials from
 * the env they are given, the memory budget and the threads from process.env; ledgerpipe's variables it lacks are
 * unset). After the run, process.env and the umask (a config may change it) are restored, and the catalog file a
 * command takes for its process is forgotten. Calls wait for each other. Not for `--help` and `--version`: yargs
 * ends the process after printing them.
 */
export function runCliHere(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  if (args.some((a) => a === '--help' || a === '--version'))
    throw new Error('runCliHere: --help and --version end the process; use runCliProcess');
  const run = hereQueue.then(async () => {
    const { runCli } = await import('../../src/cli/run.js');
    const { useCatalog } = await import('../../src/warehouse/versions.js');
    let stdout = '';
    let stderr = '';
    const io = {
      out: (line: string) => void (stdout += `${line}\n`),
      log: (line: string) => void (stderr += `${line}\n`),
      interactive: false,
      untilSignal: () => new Promise<void>(() => undefined),
    };
    const env = options.env ?? process.env;
    const saved = { ...process.env };
    const umask = process.umask();
    overlayEnv(env);
    try {
      const status = await runCli(args, io, env);
      return { status, signal: null, stdout, stderr };
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      process.umask(umask);
      // What a command takes for its process: the user's catalog (--catalog), which the next command, or a test
      // calling the transform itself, must not inherit.
      await useCatalog(undefined);
    }
  });
  hereQueue = run.catch(() => undefined);
  return run;
}

/** Sets `env`'s variables in process.env and unsets ledgerpipe's own that it lacks (vitest's own stay). */
function overlayEnv(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env))
    if (key.startsWith('LEDGERPIPE_') && env[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

export interface SimProcess {
  child: ChildProcess;
  info: { baseUrl: string; apiKey: string; secretKey: string; passphrase: string };
  stop(): Promise<number | null>;
}

/** Starts `ledgerpipe sim` as its own process and reads its first line. */
export async function startSimProcess(args: readonly string[]): Promise<SimProcess> {
  const child = spawn(process.execPath, [CLI, 'sim', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    once(child, 'exit').then(([code]) => {
      throw new Error(`sim exited with ${String(code)} before printing its first line`);
    }),
  ]);
  return {
    child,
    info: JSON.parse(first) as SimProcess['info'],
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** The environment of a CLI run against a simulator: this process's, with the simulator's key in the variables. */
export function simEnv(credentials: { apiKey: string; secretKey: string; passphrase: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LEDGERPIPE_API_KEY: credentials.apiKey,
    LEDGERPIPE_API_SECRET: credentials.secretKey,
    LEDGERPIPE_API_PASSPHRASE: credentials.passphrase,
  };
}

/**
 * What `ledgerpipe query --format csv SQL` (with `--lake PATH`, or `--db PATH`) prints, run in this process by the
 * command's own code (src/cli/query-output.ts): for tests that read results, not for the command's own tests
 * (test/cli/query.test.ts), which start the CLI. A process per read cost about 0.7 s of CPU before its query.
 */
export async function queryCsv(path: string, sql: string, source: 'warehouse' | 'lake' = 'warehouse'): Promise<string> {
  const { runQuery } = await import('../../src/cli/query-output.js');
  let text = '';
  await runQuery(path, sql, 'csv', (line) => (text += `${line}\n`), source);
  return text;
}
