import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliHere, runCliProcess } from '../helpers/cli.js';

let sim: Simulator;
let dir: string;
let out: string;
let db: string;
let before: Map<string, string>;

const env = (overrides: Record<string, string | undefined> = {}) => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    LEDGERPIPE_API_KEY: sim.credentials.apiKey,
    LEDGERPIPE_API_SECRET: sim.credentials.secretKey,
    LEDGERPIPE_API_PASSPHRASE: sim.credentials.passphrase,
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
};
const yearEnd = (...extra: string[]) => [
  'run',
  'year-end',
  '--from',
  '2025-01-01',
  '--to',
  '2025-02-01',
  '--base-url',
  sim.baseUrl,
  '--db',
  db,
  '--out',
  out,
  '--rate-scale',
  '100',
  '--quiet',
  ...extra,
];

/** Each export's SHA-256: byte-identical files have equal digests (and comparing digests is quick). */
async function snapshot(): Promise<Map<string, string>> {
  const files = (await readdir(out)).sort();
  return new Map(
    await Promise.all(
      files.map(
        async (f) =>
          [
            f,
            createHash('sha256')
              .update(await readFile(join(out, f)))
              .digest('hex'),
          ] as const,
      ),
    ),
  );
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 'bad-input',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 1, 1),
    records: 200,
    rateScale: 100,
    pendingMs: 0,
  });
  dir = await mkdtemp(join(tmpdir(), 'lp-bad-'));
  out = join(dir, 'exports');
  db = join(dir, 'w.duckdb');
  const first = await runCliHere(yearEnd(), { env: env() });
  expect(first.status).toBe(0);
  before = await snapshot();
  expect([...before.keys()]).toEqual([
    '.ledgerpipe-export.json',
    'cointracking.csv',
    'deposits.csv',
    'deposits.parquet',
    'disposals.csv',
    'disposals.parquet',
    'form8949.csv',
    'futures_fills.csv',
    'futures_fills.parquet',
    'koinly.csv',
    'ledger.csv',
    'ledger.parquet',
    'ledger_valued.csv',
    'ledger_valued.parquet',
    'manifest.json',
    'margin_records.csv',
    'margin_records.parquet',
    'report.html',
    'withdrawals.csv',
    'withdrawals.parquet',
    'year_summary.csv',
    'year_summary.parquet',
  ]);
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('bad input: one clear line, the documented exit code, and the earlier exports untouched', () => {
  it.each([
    [
      'a mistyped flag',
      () => yearEnd('--fait', 'EUR'),
      {},
      2,
      'ledgerpipe: unknown flag --fait; did you mean --fiat? (see ledgerpipe run --help)',
    ],
    [
      'an unknown flag near none',
      () => yearEnd('--colour', 'blue'),
      {},
      2,
      'ledgerpipe: unknown flag --colour (see ledgerpipe run --help)',
    ],
    [
      'a bad date',
      () => ['run', 'year-end', '--from', '2025-02-30', '--to', '2025-03-01', '--db', db, '--out', out],
      {},
      2,
      'ledgerpipe: --from "2025-02-30" is not a real calendar date or time; check the day and month',
    ],
    [
      '--from after --to',
      () => ['run', 'year-end', '--from', '2025-03-01', '--to', '2025-02-01', '--db', db, '--out', out],
      {},
      2,
      'ledgerpipe: --from 2025-03-01 must be before --to 2025-02-01',
    ],
    [
      'missing credentials',
      () => yearEnd(),
      { LEDGERPIPE_API_SECRET: undefined, LEDGERPIPE_API_PASSPHRASE: '' },
      2,
      'ledgerpipe: missing credentials for account default: set LEDGERPIPE_API_SECRET, LEDGERPIPE_API_PASSPHRASE in the environment (a read-only API key is enough)',
    ],
    [
      'a wrong secret',
      () => yearEnd(),
      { LEDGERPIPE_API_SECRET: 'not-the-secret' },
      3,
      // The first signed request asks the account's kind (docs/unified-accounts.md).
      'ledgerpipe: the platform refused GET /api/v3/account/settings: HTTP 400, code 40009 "sign signature error"; check the secret in LEDGERPIPE_API_SECRET (or your profile\'s variable)',
    ],
    [
      'a wrong passphrase',
      () => yearEnd(),
      { LEDGERPIPE_API_PASSPHRASE: 'WrongPass99' },
      3,
      'ledgerpipe: the platform refused GET /api/v3/account/settings: HTTP 400, code 40012 "apikey/password is incorrect"; check the passphrase in LEDGERPIPE_API_PASSPHRASE (or your profile\'s variable)',
    ],
    [
      'nothing listening at the base URL',
      () => [
        'run',
        'year-end',
        '--from',
        '2025-01-01',
        '--to',
        '2025-02-01',
        '--base-url',
        'http://127.0.0.1:9',
        '--db',
        db,
        '--out',
        out,
        '--quiet',
      ],
      {},
      4,
      'ledgerpipe: GET /api/v2/public/time: gave up after 3 attempts (last: nothing answers at http://127.0.0.1:9 (connection refused); check --base-url and that the service is up); everything fetched so far is saved, run again later to resume',
    ],
    [
      'a memory budget that is not a size',
      () => yearEnd(),
      { LEDGERPIPE_MEMORY_LIMIT: 'lots' },
      2,
      'ledgerpipe: LEDGERPIPE_MEMORY_LIMIT=lots is not a memory size; use a size such as 512MB or 2GB',
    ],
    [
      'a year in words',
      () => ['run', 'year-end', '--year', 'twenty', '--db', db, '--out', out],
      {},
      2,
      'ledgerpipe: --year "twenty" is not a year; use a four-digit year such as 2025',
    ],
    ['no command', () => [], {}, 2, 'ledgerpipe: name a command; see ledgerpipe --help'],
    [
      'a pipeline as the command',
      () => ['year-end', '--year', '2025'],
      {},
      2,
      'ledgerpipe: year-end is a pipeline, not a command; run it with: ledgerpipe run year-end',
    ],
    [
      'a command that does not exist',
      () => ['exports'],
      {},
      2,
      'ledgerpipe: unknown command "exports"; the commands are run, extract, transform, prices, export, report, status, query, sim, demo (see ledgerpipe --help)',
    ],
    [
      'a thread count that is not one',
      () => yearEnd(),
      { LEDGERPIPE_THREADS: 'many' },
      2,
      'ledgerpipe: LEDGERPIPE_THREADS=many is not a number of threads; use a whole number from 1, such as 2',
    ],
    [
      'an unknown pipeline',
      () => ['run', 'year-nd', '--year', '2025', '--db', db, '--out', out],
      {},
      2,
      'ledgerpipe: unknown pipeline "year-nd": not year-end or nightly, and no such file; give a built-in name or a path to a .json or .js file',
    ],
  ])('%s', async (_name, args, overrides, status, line) => {
    // The command's own code in this process (runCliHere): the line and the status are its; the tests below start
    // the CLI itself, and see the same from a process.
    const result = await runCliHere(args(), { env: env(overrides) });
    expect([result.status, result.stderr, result.stdout]).toEqual([status, `${line}\n`, '']);
    expect(await snapshot()).toEqual(before);
  });

  it('run --help names the credential variables, and its example file is one to make', async () => {
    const help = await runCliProcess(['run', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'Credentials come from the environment, never from flags: LEDGERPIPE_API_KEY, LEDGERPIPE_API_SECRET and LEDGERPIPE_API_PASSPHRASE (a read-only API key is enough), or the variables each account of --config names.',
    );
    expect(help.stdout).toContain('ledgerpipe run ./my-pipeline.json --year 2025');
  });

  it('an unknown flag with --log-format json: the line is JSON too', async () => {
    const result = await runCliProcess(yearEnd('--log-format=json', '--colour', 'blue'), { env: env() });
    expect([result.status, result.stdout]).toEqual([2, '']);
    expect(JSON.parse(result.stderr)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'error',
      msg: 'unknown flag --colour (see ledgerpipe run --help)',
      code: 'LP_USAGE',
      exit: 2,
    });
  });

  it('a config file with a bad field', async () => {
    const config = join(dir, 'bad.config.json');
    await writeFile(
      config,
      JSON.stringify({
        accounts: [{ name: 'main', baseUrl: 'ftp://example.com', env: { key: 'K', secret: 'S', passphrase: 'P' } }],
      }),
    );
    const result = await runCliProcess(yearEnd('--config', config), { env: env() });
    expect([result.status, result.stderr]).toEqual([
      2,
      `ledgerpipe: config ${config}: accounts.0.baseUrl: Invalid URL; fix that field\n`,
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('a pipeline file with a bad field', async () => {
    const file = join(dir, 'mine.json');
    await writeFile(file, JSON.stringify({ name: 'mine', range: { kind: 'flags' }, stages: ['extract', 'publish'] }));
    const result = await runCliProcess(['run', file, '--year', '2025', '--db', db, '--out', out], { env: env() });
    expect([result.status, result.stderr]).toEqual([
      2,
      `ledgerpipe: pipeline file ${file} is not a valid pipeline: stages.1: Invalid option: expected one of "extract"|"transform"|"prices"|"export"\n`,
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('an --out that cannot be written', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, 'x');
    const result = await runCliProcess(
      ['export', '--from', '2025-01-01', '--to', '2025-02-01', '--db', db, '--out', join(blocker, 'exports')],
      { env: env() },
    );
    expect([result.status, result.stderr]).toEqual([
      2,
      `ledgerpipe: cannot write to --out ${join(blocker, 'exports')} (ENOTDIR); choose a folder you can write to\n`,
    ]);
    expect(await snapshot()).toEqual(before);
  });
});
