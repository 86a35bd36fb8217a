import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../helpers/cli.js';
import { startHostile, type HostileServer } from '../helpers/hostile-server.js';

let dir: string;
let server: HostileServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-modes-'));
  server = await startHostile({});
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const env = {
  ...process.env,
  LEDGERPIPE_API_KEY: 'modes-key-0123',
  LEDGERPIPE_API_SECRET: 'modes-secret-0123',
  LEDGERPIPE_API_PASSPHRASE: 'ModesPass1',
};

/** The permission bits of `path` and of everything in it, by name relative to `dir`. */
async function modes(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (path: string, name: string): Promise<void> => {
    const s = await stat(path);
    out[name] = (s.mode & 0o777).toString(8);
    if (s.isDirectory()) for (const child of await readdir(path)) await walk(join(path, child), `${name}/${child}`);
  };
  await walk(root, '.');
  return out;
}

/** A year-end over January 2025 into `<dir>/data/w.duckdb` and `<dir>/out` (both folders new), CSV only. */
const yearEnd = (...extra: string[]) =>
  runCliProcess(
    [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--streams',
      'withdrawals',
      '--format',
      'csv',
      '--base-url',
      server.baseUrl,
      '--db',
      join(dir, 'data', 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--rate-scale',
      '1000',
      '--quiet',
      ...extra,
    ],
    { env },
  );

describe('what ledgerpipe creates', () => {
  it("is the owner's alone: 0600 files, 0700 folders", async () => {
    const result = await yearEnd();
    expect([result.status, result.stderr]).toEqual([0, '']);
    const all = await modes(dir);
    delete all['.'];
    expect(Object.keys(all)).toContain('./out/ledger.csv');
    expect(Object.keys(all)).toContain('./data/w.duckdb');
    expect(
      Object.entries(all).filter(([name, mode]) => mode !== (name === './data' || name === './out' ? '700' : '600')),
    ).toEqual([]);
  });

  it('follows the umask a config file sets', async () => {
    const config = join(dir, 'ledgerpipe.config.json');
    await writeFile(
      config,
      JSON.stringify({
        umask: '027',
        accounts: [
          {
            name: 'main',
            baseUrl: server.baseUrl,
            env: {
              key: 'LEDGERPIPE_API_KEY',
              secret: 'LEDGERPIPE_API_SECRET',
              passphrase: 'LEDGERPIPE_API_PASSPHRASE',
            },
          },
        ],
      }),
    );
    const result = await yearEnd('--config', config);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const all = await modes(dir);
    expect([all['./data'], all['./data/w.duckdb'], all['./out'], all['./out/ledger.csv']]).toEqual([
      '750',
      '640',
      '750',
      '640',
    ]);
  });

  it('refuses a umask that is not one', async () => {
    const config = join(dir, 'ledgerpipe.config.json');
    await writeFile(
      config,
      JSON.stringify({
        umask: '0o77',
        accounts: [{ name: 'main', baseUrl: server.baseUrl, env: { key: 'A', secret: 'B', passphrase: 'C' } }],
      }),
    );
    const result = await yearEnd('--config', config);
    expect([result.status, result.stderr]).toEqual([
      2,
      `ledgerpipe: config ${config}: umask: an octal umask such as 077 (only you), 027 (your group may read) or 022 (everyone may read); fix that field\n`,
    ]);
  });
});
