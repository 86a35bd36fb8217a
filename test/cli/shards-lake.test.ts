import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/pipeline/shard.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { queryCsv, runCliHere, runCliProcess } from '../helpers/cli.js';
import { writeSimAccountsConfig } from '../helpers/sim-accounts.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 1, 1);
const TABLES = ['deposits', 'futures_fills', 'ledger', 'margin_records', 'withdrawals'];
const SHARDS = 4;

let dir: string;
let sim: Simulator;
let config: string;
let env: NodeJS.ProcessEnv;

/**
 * `run year-end` of January 2025 into its own warehouse and folder, with the lake and any more flags: in this
 * process, or (`--shard`) in one of its own, as the shards run side by side.
 */
function yearEnd(name: string, lake: string, ...more: string[]) {
  return (more.includes('--shard') ? runCliProcess : runCliHere)(
    [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--config',
      config,
      '--db',
      join(dir, `${name}.duckdb`),
      '--out',
      join(dir, `out-${name}`),
      '--lake',
      lake,
      '--format',
      'csv',
      '--rate-scale',
      '50',
      '--quiet',
      ...more,
    ],
    { env },
  );
}

/** Every file of the lake with its SHA-256 and modification time, by path. */
async function lakeFiles(lake: string): Promise<Map<string, { sha: string; mtime: number }>> {
  const out = new Map<string, { sha: string; mtime: number }>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) await walk(path);
      else
        out.set(relative(lake, path), {
          sha: createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
          mtime: (await stat(path)).mtimeMs,
        });
    }
  };
  await walk(lake);
  return out;
}

/** What `ledgerpipe query --lake LAKE --format csv SQL` prints (the command's own code, in this process). */
const query = (lake: string, sql: string): Promise<string> => queryCsv(lake, sql, 'lake');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-lake-'));
  // Five accounts fall in the four shards as 1, 2, 2 and none (shardOf): a shard of one, of several, and an empty one.
  sim = await startSimulator({
    seed: 'lake',
    from: FROM,
    to: TO,
    records: 20,
    rateScale: 50,
    pendingMs: 0,
    accounts: 5,
  });
  config = join(dir, 'ledgerpipe.config.json');
  env = { ...process.env, ...(await writeSimAccountsConfig(config, sim)) };
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('shards and the lake', () => {
  it('splits the accounts with no overlap and no gap, stable when one is added', () => {
    const names = sim.accounts.map((a) => a.name);
    const parts = Array.from({ length: SHARDS }, (_, i) => names.filter((n) => shardOf(n, SHARDS) === i));
    expect(parts.flat().sort()).toEqual([...names].sort());
    // An account added later lands in one part and moves no other.
    const before = names.map((n) => shardOf(n, SHARDS));
    expect([...names, 'acct-new'].map((n) => shardOf(n, SHARDS)).slice(0, names.length)).toEqual(before);
  });

  it('4 shards as 4 processes write one lake equal, row for row, to one process over every account; a shard rerun replaces only its partitions', async () => {
    const single = join(dir, 'lake-single');
    const shared = join(dir, 'lake-shared');
    const one = await yearEnd('single', single);
    expect([one.status, one.stderr]).toEqual([0, '']);
    const runs = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) => yearEnd(`shard-${i}`, shared, '--shard', `${i}/${SHARDS}`)),
    );
    for (const run of runs) expect([run.status, run.stderr]).toEqual([0, '']);
    for (const table of TABLES) {
      const sql = `SELECT * FROM ${table} ORDER BY ALL`;
      const rows = await query(shared, sql);
      expect(rows.split('\n').length, table).toBeGreaterThan(sim.accounts.length);
      expect(rows, table).toBe(await query(single, sql));
    }
    // Every partition is there, and says it is not complete: only January of 2025 was read, and its manifest
    // says so for the streams its rows come from (the ledger's: all eight paged streams).
    const partitions = await query(
      shared,
      'SELECT "table", account, "year", complete, len(coverage) FROM lake_partitions ORDER BY ALL',
    );
    const expected = TABLES.flatMap((t) =>
      sim.accounts.map((a) => `${t},${a.name},2025,false,${t === 'ledger' ? 8 : 1}`),
    ).sort();
    expect(partitions.trimEnd().split('\n').slice(1)).toEqual(expected);
    const manifest = JSON.parse(
      await readFile(join(shared, 'ledger', 'account=default', 'year=2025', '_manifest.json'), 'utf8'),
    ) as { coverage: { stream: string; covered: unknown; gaps: unknown }[] };
    expect(manifest.coverage.find((c) => c.stream === 'withdrawals')).toEqual({
      stream: 'withdrawals',
      covered: [{ from: '2025-01-01T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z' }],
      gaps: [{ from: '2025-02-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' }],
    });

    const mine = sim.accounts.filter((a) => shardOf(a.name, SHARDS) === 1).map((a) => `account=${a.name}`);
    expect(mine.length).toBeGreaterThan(0);
    const before = await lakeFiles(shared);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await yearEnd('shard-1', shared, '--shard', `1/${SHARDS}`);
    expect([again.status, again.stderr]).toEqual([0, '']);
    const after = await lakeFiles(shared);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const touched = [...after].filter(([path, f]) => f.mtime !== before.get(path)?.mtime).map(([path]) => path);
    expect(touched.sort()).toEqual(
      [...before.keys()].filter((path) => mine.some((m) => path.includes(`/${m}/`))).sort(),
    );
    // Rewritten with the same rows: the data files are byte for byte the same.
    for (const path of touched.filter((p) => p.endsWith('data.parquet')))
      expect(after.get(path)?.sha, path).toBe(before.get(path)?.sha);
  }, 240_000);

  it("gives the lake's files the config's lakeMode, its new folders the same with x, and leaves the root alone", async () => {
    const lake = join(dir, 'lake-mode');
    await mkdir(lake, { mode: 0o700 });
    const withMode = join(dir, 'mode.config.json');
    await writeFile(withMode, JSON.stringify({ ...JSON.parse(await readFile(config, 'utf8')), lakeMode: '640' }));
    const run = await runCliProcess([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--db',
      join(dir, 'single.duckdb'),
      '--out',
      join(dir, 'out-mode'),
      '--config',
      withMode,
      '--lake',
      lake,
      '--format',
      'csv',
      '--quiet',
    ]);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    const partition = join(lake, 'ledger', 'account=default', 'year=2025');
    expect([
      await mode(lake),
      await mode(join(lake, 'ledger')),
      await mode(partition),
      await mode(join(partition, 'data.parquet')),
      await mode(join(partition, '_manifest.json')),
    ]).toEqual([0o700, 0o750, 0o750, 0o640, 0o640]);
  }, 60_000);

  it('refuses to query a lake with a symbolic link in it, which could lead the query out of the lake', async () => {
    const lake = join(dir, 'lake-link');
    await mkdir(join(lake, 'ledger', 'account=a', 'year=2025'), { recursive: true });
    await symlink('/', join(lake, 'ledger', 'account=a', 'escape'));
    const run = await runCliProcess(['query', '--lake', lake, 'SELECT 1']);
    expect([run.status, run.stderr.trimEnd()]).toEqual([
      2,
      `ledgerpipe: --lake ${lake} holds a symbolic link, ${join(lake, 'ledger', 'account=a', 'escape')}; query reads only a lake of plain files and folders`,
    ]);
  });

  it('writes the tax files and the report per account too, since neither tax format has an account column', async () => {
    const out = join(dir, 'out-per-account');
    const run = await runCliProcess([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--db',
      join(dir, 'single.duckdb'),
      '--out',
      out,
      '--format',
      'koinly,cointracking,report',
      '--quiet',
    ]);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const names = sim.accounts.map((a) => a.name).sort();
    expect((await readdir(join(out, 'accounts'))).sort()).toEqual(names);
    const all = (await readFile(join(out, 'koinly.csv'), 'utf8')).trimEnd().split('\n');
    const perAccount: string[] = [];
    for (const name of names) {
      expect((await readdir(join(out, 'accounts', name))).sort()).toEqual([
        '.ledgerpipe-export.json',
        'cointracking.csv',
        'koinly.csv',
        'manifest.json',
        'report.html',
      ]);
      const [header, ...rows] = (await readFile(join(out, 'accounts', name, 'koinly.csv'), 'utf8'))
        .trimEnd()
        .split('\n');
      expect(header).toBe(all[0]);
      // Each row is the account's own: Koinly's Description ends with the account in brackets.
      expect(rows.every((r) => r.includes(`[${name}]`))).toBe(true);
      perAccount.push(...rows);
      const manifest = JSON.parse(await readFile(join(out, 'accounts', name, 'manifest.json'), 'utf8')) as {
        accounts: string[];
      };
      expect(manifest.accounts).toEqual([name]);
      expect(await readFile(join(out, 'accounts', name, 'report.html'), 'utf8')).toContain(`Account <b>${name}</b>`);
    }
    // Together they are the whole file, row for row.
    expect(perAccount.sort()).toEqual(all.slice(1).sort());
  }, 60_000);
});
