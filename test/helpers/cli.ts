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
export function runCliProcess(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return runNodeProcess([CLI, ...args], options);
}

/** Runs node with `args` (node's own flags, then a script and its arguments) to its end. */
export async function runNodeProcess(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [status, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { status, signal, stdout, stderr };
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
  return { ...process.env, LEDGERPIPE_API_KEY: credentials.apiKey, LEDGERPIPE_API_SECRET: credentials.secretKey, LEDGERPIPE_API_PASSPHRASE: credentials.passphrase };
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
