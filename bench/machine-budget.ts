import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shardOf } from '../src/pipeline/shard.js';
import { simAccountOf } from '../src/sim/server.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { accountsBound, type AccountsBound } from './accounts-bound.js';
import type { SimInfo } from './sim-load.js';
import { spawnSimulator, stopChild } from './sim-process.js';

/** How the accounts are split between processes of one machine reading one platform address (issue 45). */
export type MachineScenario =
  /** A cron of shards on one machine: `--shard i/3`, each process started when the one before ends. */
  | 'shards-one-after-another'
  /** Two warehouses at once: the first half of the accounts in one process, the second in another. */
  | 'two-at-once';

export interface MachineBudgetMeasurement {
  scenario: MachineScenario;
  accounts: number;
  processes: number;
  /** From the first process's start to the last one's end. */
  wallSeconds: number;
  /** Each process's own wall time, in the order they started. */
  processSeconds: number[];
  bound: AccountsBound;
  ratio: number;
  /** What the simulator saw from the address: every request, those answered 429, and breaches of its per-IP cap. */
  requests: number;
  rateLimited: number;
  ipBreaches: number;
  /** What the processes counted themselves (table runs of their warehouses). */
  clientRequests: number;
  clientRateLimited: number;
  /** The 429s the processes received, by stream (their summaries' lines), to tell a key's limit from the address's. */
  rateLimitedByStream: Record<string, number>;
}

/**
 * The simulator's last line on stderr says what it answered: `stopped after N requests; by status {...}; IP cap
 * breaches K`.
 */
function simulatorCounts(stderr: string): { requests: number; rateLimited: number; ipBreaches: number } {
  const match = /stopped after (\d+) requests; by status (\{[^}]*\}); IP cap breaches (\d+)/.exec(stderr);
  if (match === null) throw new Error(`bench: the simulator did not say what it answered: ${stderr}`);
  const byStatus = JSON.parse(match[2] as string) as Record<string, number>;
  return { requests: Number(match[1]), rateLimited: byStatus['429'] ?? 0, ipBreaches: Number(match[3]) };
}

/**
 * The machine's IP budget (docs/many-accounts.md, "One budget per machine") as a user meets it: `accounts` accounts
 * of one simulator, in its own process with the real per-key limits and the live per-IP cap of 6,000 a minute, read
 * by several `ledgerpipe extract` processes of this machine sharing one state directory, each with its own
 * warehouse and the default budget of 5,400 a minute. Beside the bound of all the accounts together (however they
 * are split, the address's budget is one): the slowest key's, or every account's fewest requests over the budget.
 */
export async function measureMachineBudget(options: {
  scenario: MachineScenario;
  accounts: number;
  from: string;
  to: string;
  records: number;
  seed: string;
  signal?: AbortSignal;
}): Promise<MachineBudgetMeasurement> {
  const bound = scenarioBound(options);
  const sim = await spawnSimulator({
    records: options.records,
    rateScale: 1,
    startTimeoutMs: 300_000,
    seed: options.seed,
    from: options.from,
    to: options.to,
    accounts: options.accounts,
    front: true,
  });
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-machine-'));
  let measured: Omit<MachineBudgetMeasurement, 'requests' | 'rateLimited' | 'ipBreaches'>;
  try {
    const rateLimitedByStream: Record<string, number> = {};
    const run = runner(sim.info, dir, options, rateLimitedByStream);
    const started = performance.now();
    const dbs: string[] = [];
    const processSeconds: number[] = [];
    if (options.scenario === 'shards-one-after-another') {
      const config = await writeConfig(
        sim.info,
        dir,
        'all',
        sim.info.accounts.map((_, i) => i),
      );
      for (let i = 0; i < 3; i++) {
        dbs.push(join(dir, `shard-${i}.duckdb`));
        processSeconds.push(await run(config, dbs[i] as string, ['--shard', `${i}/3`]));
      }
    } else {
      const half = Math.ceil(sim.info.accounts.length / 2);
      const indexes = sim.info.accounts.map((_, i) => i);
      const configs = await Promise.all([
        writeConfig(sim.info, dir, 'first', indexes.slice(0, half)),
        writeConfig(sim.info, dir, 'second', indexes.slice(half)),
      ]);
      dbs.push(join(dir, 'first.duckdb'), join(dir, 'second.duckdb'));
      processSeconds.push(...(await Promise.all(configs.map((config, i) => run(config, dbs[i] as string, [])))));
    }
    const wallSeconds = (performance.now() - started) / 1000;
    let clientRequests = 0;
    let clientRateLimited = 0;
    for (const db of dbs) {
      const warehouse = await openWarehouse(db);
      try {
        const row = (
          await warehouse.connection.runAndReadAll('SELECT sum(requests), sum(rate_limited) FROM runs')
        ).getRows()[0];
        clientRequests += Number(row?.[0] ?? 0);
        clientRateLimited += Number(row?.[1] ?? 0);
      } finally {
        await warehouse.close();
      }
    }
    measured = {
      scenario: options.scenario,
      accounts: options.accounts,
      processes: dbs.length,
      wallSeconds,
      processSeconds,
      bound,
      ratio: wallSeconds / bound.boundSeconds,
      clientRequests,
      clientRateLimited,
      rateLimitedByStream,
    };
  } finally {
    await stopChild(sim.child);
    await rm(dir, { recursive: true, force: true });
  }
  return { ...measured, ...simulatorCounts(sim.stderr()) };
}

/**
 * The bound of a scenario. At once, that of all the accounts together: the address's budget is one, and the slowest
 * key still sets a floor. One after another, each shard also waits for its own slowest key before the next starts:
 * the sum of the shards' per-key bounds, if that is slower than every account's requests over the budget.
 */
function scenarioBound(options: {
  scenario: MachineScenario;
  accounts: number;
  from: string;
  to: string;
  records: number;
  seed: string;
}): AccountsBound {
  const all = accountsBound(options);
  if (options.scenario === 'two-at-once') return all;
  const names = Array.from({ length: options.accounts }, (_, i) => simAccountOf(options.seed, i).name);
  let shardsSeconds = 0;
  for (let shard = 0; shard < 3; shard++) {
    const only = names.flatMap((name, i) => (shardOf(name, 3) === shard ? [i] : []));
    if (only.length > 0) shardsSeconds += accountsBound({ ...options, only }).perKeyBoundSeconds;
  }
  return { ...all, perKeyBoundSeconds: shardsSeconds, boundSeconds: Math.max(all.ipBoundSeconds, shardsSeconds) };
}

/** A config of some of the simulator's accounts, their keys in variables named after their index. */
async function writeConfig(info: SimInfo, dir: string, name: string, indexes: readonly number[]): Promise<string> {
  const config = join(dir, `${name}.config.json`);
  const accounts = indexes.map((i) => ({
    name: info.accounts[i]?.name,
    baseUrl: info.baseUrl,
    env: { key: `BENCH_${i}_KEY`, secret: `BENCH_${i}_SECRET`, passphrase: `BENCH_${i}_PASSPHRASE` },
  }));
  await writeFile(config, JSON.stringify({ accounts }));
  return config;
}

/**
 * Runs `ledgerpipe extract` of a config into `db`; resolves with its wall time in seconds, or throws unless it exits 0.
 * The 429s its summary lists are added to `byStream`.
 */
function runner(
  info: SimInfo,
  dir: string,
  range: { from: string; to: string; signal?: AbortSignal },
  byStream: Record<string, number>,
): (config: string, db: string, more: readonly string[]) => Promise<number> {
  const keys = Object.fromEntries(
    info.accounts.flatMap((a, i) => [
      [`BENCH_${i}_KEY`, a.apiKey],
      [`BENCH_${i}_SECRET`, a.secretKey],
      [`BENCH_${i}_PASSPHRASE`, a.passphrase],
    ]),
  );
  // Every process of the bench shares one state directory, as the processes of one user on one machine do.
  const env = { ...process.env, ...keys, LEDGERPIPE_STATE_DIR: join(dir, 'state') };
  const main = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
  return async (config, db, more) => {
    const started = performance.now();
    const args = [
      main,
      'extract',
      '--from',
      range.from,
      '--to',
      range.to,
      '--config',
      config,
      '--db',
      db,
      '--quiet',
      ...more,
    ];
    const cli = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(range.signal === undefined ? {} : { signal: range.signal }),
    });
    let out = '';
    cli.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const [code] = (await once(cli, 'exit')) as [number | null];
    if (process.env['LP_BENCH_DEBUG'] !== undefined) process.stderr.write(out);
    if (code !== 0) throw new Error(`bench: extract ${more.join(' ')} of ${config} exited with ${String(code)}`);
    // The summary's lines per account and stream: account, stream, windows, skipped, pages, records, outside, requests,
    // 429s, retries.
    for (const line of out.split('\n')) {
      const cells = line.trim().split(/\s+/);
      const limited = Number(cells[8]);
      if (cells.length === 10 && cells[0] !== 'account' && limited > 0)
        byStream[cells[1] as string] = (byStream[cells[1] as string] ?? 0) + limited;
    }
    return (performance.now() - started) / 1000;
  };
}
