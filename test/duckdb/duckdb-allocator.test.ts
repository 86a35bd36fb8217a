import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configureDuckDBAllocator, DUCKDB_ALLOCATOR_VARIABLE } from '../../src/duckdb/duckdb-allocator.js';
import { CLI, runNodeProcess } from '../helpers/cli.js';

const PROBE = fileURLToPath(new URL('../helpers/dlopen-probe.cjs', import.meta.url));

/** Runs node with `args`, without the variable in its environment unless `extra` sets it. */
function runNode(args: readonly string[], extra: NodeJS.ProcessEnv = {}): ReturnType<typeof runNodeProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (extra[DUCKDB_ALLOCATOR_VARIABLE] === undefined) delete env[DUCKDB_ALLOCATOR_VARIABLE];
  return runNodeProcess(args, { env });
}

describe('DuckDB allocator options', () => {
  it('are set when the variable is unset, and come before a user’s own options, which win', () => {
    const unset: NodeJS.ProcessEnv = {};
    configureDuckDBAllocator(unset);
    expect(unset).toEqual({ DUCKDB_JE_MALLOC_CONF: 'narenas:1' });
    const own: NodeJS.ProcessEnv = { DUCKDB_JE_MALLOC_CONF: 'narenas:4,dirty_decay_ms:0' };
    configureDuckDBAllocator(own);
    expect(own).toEqual({ DUCKDB_JE_MALLOC_CONF: 'narenas:1,narenas:4,dirty_decay_ms:0' });
    // A child process inherits the variable and configures again: nothing is added twice.
    configureDuckDBAllocator(own);
    expect(own).toEqual({ DUCKDB_JE_MALLOC_CONF: 'narenas:1,narenas:4,dirty_decay_ms:0' });
  });

  it('are in place when the CLI loads DuckDB’s library', async () => {
    // status loads DuckDB before it finds there is no warehouse (exit 2).
    const { status, stderr } = await runNode([
      '--require',
      PROBE,
      CLI,
      'status',
      '--db',
      '/nonexistent/ledgerpipe.duckdb',
    ]);
    expect(status).toBe(2);
    expect(stderr.split('\n').filter((l) => l.startsWith('probe:'))).toEqual([
      'probe: DuckDB loads with DUCKDB_JE_MALLOC_CONF=narenas:1',
    ]);
  });

  it('are never needed for --help and --version: the CLI loads no DuckDB for them', async () => {
    const version = (
      JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    const runs = await Promise.all(
      [['--help'], ['--version'], ['query', '--help'], ['run', '--help'], ['demo', '--help']].map((args) =>
        runNode(['--require', PROBE, CLI, ...args]),
      ),
    );
    expect(runs.map((r) => [r.status, r.stderr])).toEqual(runs.map(() => [0, '']));
    expect(runs[0]?.stdout).toMatch(/^ledgerpipe <command>\n\nCommands:\n  ledgerpipe run <pipeline> /);
    expect(runs[1]?.stdout).toBe(`${version}\n`);
    expect(runs[2]?.stdout).toMatch(/^ledgerpipe query <sql>\n/);
  });

  // DuckDB ships jemalloc only in its Linux builds.
  it.runIf(process.platform === 'linux')(
    'are read by DuckDB’s jemalloc from that variable, later options winning',
    async () => {
      // stats_print makes jemalloc print its options at exit. DuckDB's own choice here is one arena per core:
      // 3 is nobody's default, so seeing it proves the variable is read, and read left to right.
      const script = `const { DuckDBInstance } = await import('@duckdb/node-api');
      const connection = await (await DuckDBInstance.create(':memory:')).connect();
      await connection.run('SELECT 42');`;
      const env: NodeJS.ProcessEnv = { [DUCKDB_ALLOCATOR_VARIABLE]: 'narenas:3,stats_print:true' };
      configureDuckDBAllocator(env);
      const { status, stderr } = await runNode(['--input-type=module', '-e', script], env);
      expect(status).toBe(0);
      expect(stderr).toMatch(/^ {2}opt\.narenas: 3$/m);
    },
  );
});
