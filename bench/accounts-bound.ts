import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_IP_LIMIT_PER_MINUTE } from '../src/extract/ip-budget.js';
import { generateDataset } from '../src/sim/data/dataset.js';
import { simAccountOf } from '../src/sim/server.js';
import { STREAMS } from '../src/streams/index.js';
import { streamsForAccount } from '../src/streams/stream.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';
import { rateLimitBound } from './extract-bound.js';
import { ipBreachesOf, spawnSimulator, stopChild } from './sim-process.js';

export interface AccountsMeasurement {
  accounts: number;
  wallSeconds: number;
  /** The slowest account's own bound: its slowest endpoint's fewest requests over its rate. */
  perKeyBoundSeconds: number;
  /** Every account's fewest requests over the IP budget. */
  ipBoundSeconds: number;
  boundSeconds: number;
  ratio: number;
  requests: number;
  fewestRequests: number;
  rateLimited: number;
  /** Requests the simulator refused for the per-IP cap. */
  ipBreaches: number;
}

/**
 * The bound of extracting `accounts` accounts (measureAccounts): whichever is slower, the slowest key or the IP budget.
 */
export interface AccountsBound {
  fewestRequests: number;
  perKeyBoundSeconds: number;
  ipBoundSeconds: number;
  boundSeconds: number;
}

/**
 * The rate-limit bound of `accounts` accounts of the simulator over `[from, to)`, however they are split between
 * processes: the slowest account's own bound (its slowest endpoint's fewest requests over its rate), or every
 * account's fewest requests over the IP budget (default 5,400 a minute), whichever is slower.
 */
export function accountsBound(options: {
  accounts: number;
  from: string;
  to: string;
  records: number;
  seed: string;
  ipLimit?: number;
  only?: readonly number[];
}): AccountsBound {
  const from = Date.parse(`${options.from}T00:00:00Z`);
  const to = Date.parse(`${options.to}T00:00:00Z`);
  let fewestRequests = 0;
  let perKeyBoundSeconds = 0;
  for (let i = 0; i < options.accounts; i++) {
    // Some of them only (`only`: their indexes), as one shard of them.
    if (options.only !== undefined && !options.only.includes(i)) continue;
    const dataset = generateDataset({
      seed: simAccountOf(options.seed, i).seed,
      from,
      to,
      records: options.records,
      marginWindowDays: 366,
    });
    // The streams a classic account is read with, as the simulator's accounts are (not a unified account's, the copy
    // projects' nor a lead trader's).
    const bounds = Object.values(rateLimitBound(dataset, streamsForAccount(STREAMS, 'classic', undefined), from, to));
    fewestRequests += bounds.reduce((n, b) => n + b.fewestRequests, 0);
    perKeyBoundSeconds = Math.max(perKeyBoundSeconds, ...bounds.map((b) => b.boundSeconds));
  }
  const ipBoundSeconds = fewestRequests / ((options.ipLimit ?? DEFAULT_IP_LIMIT_PER_MINUTE) / 60);
  return {
    fewestRequests,
    perKeyBoundSeconds,
    ipBoundSeconds,
    boundSeconds: Math.max(perKeyBoundSeconds, ipBoundSeconds),
  };
}

/**
 * `ledgerpipe extract` of `accounts` accounts of one config over `[from, to)`, as a user runs it, against a
 * simulator in its own process enforcing the real per-key limits and the live per-IP cap, beside the bound: the
 * slower of the per-key bound and every account's fewest requests divided by the default IP budget.
 */
export async function measureAccounts(options: {
  accounts: number;
  from: string;
  to: string;
  records: number;
  seed: string;
  ipLimit?: number;
}): Promise<AccountsMeasurement> {
  const { fewestRequests, perKeyBoundSeconds, ipBoundSeconds, boundSeconds } = accountsBound(options);
  const { child, info, stderr } = await spawnSimulator({
    records: options.records,
    rateScale: 1,
    startTimeoutMs: 300_000,
    seed: options.seed,
    from: options.from,
    to: options.to,
    accounts: options.accounts,
    front: true,
  });
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-accounts-'));
  let measured: Omit<AccountsMeasurement, 'ipBreaches'>;
  try {
    const variable = (i: number, field: string) => `BENCH_${i}_${field}`;
    const config = join(dir, 'ledgerpipe.config.json');
    await writeFile(
      config,
      JSON.stringify({
        accounts: info.accounts.map((a, i) => ({
          name: a.name,
          baseUrl: info.baseUrl,
          env: { key: variable(i, 'KEY'), secret: variable(i, 'SECRET'), passphrase: variable(i, 'PASSPHRASE') },
        })),
      }),
    );
    // The machine's IP budget in the bench's own folder, not the user's cache directory.
    const env = {
      ...process.env,
      ...Object.fromEntries(
        info.accounts.flatMap((a, i) => [
          [variable(i, 'KEY'), a.apiKey],
          [variable(i, 'SECRET'), a.secretKey],
          [variable(i, 'PASSPHRASE'), a.passphrase],
        ]),
      ),
      LEDGERPIPE_STATE_DIR: join(dir, 'state'),
    };
    const db = join(dir, 'bench.duckdb');
    const main = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
    const started = performance.now();
    const cli = spawn(
      process.execPath,
      [
        main,
        'extract',
        '--from',
        options.from,
        '--to',
        options.to,
        '--config',
        config,
        '--db',
        db,
        '--quiet',
        ...(options.ipLimit === undefined ? [] : ['--ip-limit', String(options.ipLimit)]),
      ],
      { env, stdio: ['ignore', process.env['LP_BENCH_DEBUG'] === undefined ? 'ignore' : 'inherit', 'inherit'] },
    );
    const [code] = (await once(cli, 'exit')) as [number | null];
    const wallSeconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`bench: extract of ${options.accounts} accounts exited with ${String(code)}`);
    const warehouse = await openWarehouse(db);
    let requests = 0;
    let rateLimited = 0;
    try {
      const row = (
        await warehouse.connection.runAndReadAll('SELECT sum(requests), sum(rate_limited) FROM runs')
      ).getRows()[0];
      requests = Number(row?.[0] ?? 0);
      rateLimited = Number(row?.[1] ?? 0);
    } finally {
      await warehouse.close();
    }
    measured = {
      accounts: options.accounts,
      wallSeconds,
      perKeyBoundSeconds,
      ipBoundSeconds,
      boundSeconds,
      ratio: wallSeconds / boundSeconds,
      requests,
      fewestRequests,
      rateLimited,
    };
  } finally {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  }
  return { ...measured, ipBreaches: ipBreachesOf(stderr()) };
}
