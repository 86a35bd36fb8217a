import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess, simEnv, type CliResult } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

/**
 * The README's path as an accountant walks it, in one folder, over time (docs/settings.md, docs/files.md): a
 * year-end in GBP by the UK rules, the nightly after it, a query, a mistyped year, a changed mind. Each command is
 * a process of its own in that folder, with the default warehouse and exports, as a user types them.
 */
const YEAR = new Date().getUTCFullYear() - 1;
const NEXT = YEAR + 2;

const UK_RULES = [
  'same_day',
  'thirty_day',
  'section_104',
  'unmatched',
  'withdrawal_same_day',
  'withdrawal_thirty_day',
  'withdrawal_section_104',
];

let dir: string;
let sim: Simulator;
let env: NodeJS.ProcessEnv;
let yearEnd: CliResult;
let filed: Map<string, Buffer>;

const run = (...args: string[]) => runCliProcess([...args, '--rate-scale', '1000', '--quiet'], { env, cwd: dir });

async function files(folder: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(join(dir, folder), { recursive: true })).filter((n) => !n.startsWith('.')).sort();
  const out = new Map<string, Buffer>();
  for (const name of names) {
    const bytes = await readFile(join(dir, folder, name)).catch(() => undefined);
    if (bytes !== undefined) out.set(name, bytes);
  }
  return out;
}

async function query(sql: string): Promise<Record<string, string | null>[]> {
  const warehouse = await openWarehouse(join(dir, 'ledgerpipe.duckdb'));
  try {
    return await rows(warehouse, sql);
  } finally {
    await warehouse.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-books-'));
  sim = await startSimulator({
    seed: 'books',
    from: Date.UTC(YEAR, 0, 1),
    to: Date.UTC(YEAR + 1, 0, 1),
    records: 300,
    rateScale: 1000,
    pendingMs: 0,
  });
  env = { ...simEnv(sim.credentials), LEDGERPIPE_BASE_URL: sim.baseUrl };
  // The accountant's GBP rates: 0.78 GBP a USDT from the year's start.
  await writeFile(join(dir, 'gbp.csv'), `time,currency,rate\n${YEAR - 3}-01-01,GBP,0.79\n${YEAR}-01-01,GBP,0.78\n`);
  yearEnd = await run(
    'run',
    'year-end',
    '--year',
    String(YEAR),
    '--fiat',
    'GBP',
    '--fiat-rates',
    'gbp.csv',
    '--cost-basis',
    'uk',
  );
  filed = await files(`exports/${YEAR}`);
}, 240_000);
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the books in one folder', () => {
  it('keeps the year-end filed through the nightly: its folder byte for byte, its fiat, its rules and its disposals', async () => {
    expect([yearEnd.status, yearEnd.stderr]).toEqual([0, '']);
    expect([...filed.keys()]).toContain('disposals.csv');
    const before = await query(
      `SELECT match_rule, count(*) AS n FROM disposals WHERE disposed_at < '${YEAR + 1}-01-01' GROUP BY ALL ORDER BY ALL`,
    );
    const nightly = await run('run', 'nightly');
    expect([nightly.status, nightly.stderr]).toEqual([0, '']);
    // The year filed is as it was: every file, the manifest and the report included.
    const after = await files(`exports/${YEAR}`);
    expect([...after.keys()]).toEqual([...filed.keys()]);
    for (const [name, bytes] of filed) expect(after.get(name)?.equals(bytes), name).toBe(true);
    // The nightly wrote its own folder, the tax year to date (the UK rules brought the UK's tax year, from 6 April
    // London time), in the settings the year-end gave.
    const now = Date.now();
    const started = now >= Date.UTC(YEAR + 1, 3, 5, 23) ? YEAR + 1 : YEAR;
    const taxYear = `${started}-${String((started + 1) % 100).padStart(2, '0')}`;
    expect((await readdir(join(dir, 'exports'))).sort()).toEqual([String(YEAR), `${taxYear}-to-date`]);
    const manifest = JSON.parse(
      await readFile(join(dir, 'exports', `${taxYear}-to-date`, 'manifest.json'), 'utf8'),
    ) as { fiat: string; range: { to_date: boolean; read_up_to: string } };
    expect([manifest.fiat, manifest.range.to_date, typeof manifest.range.read_up_to]).toEqual(['GBP', true, 'string']);
    expect(
      await query(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'ledger_valued' AND column_name LIKE 'value_%' ORDER BY column_index",
      ),
    ).toEqual([{ column_name: 'value_usdt' }, { column_name: 'value_gbp' }]);
    expect(
      await query(
        'SELECT fiat, fiat_source, cost_basis, pool, set_by.fiat AS fiat_by, set_by.cost_basis AS basis_by FROM settings',
      ),
    ).toEqual([
      {
        fiat: 'GBP',
        fiat_source: 'file',
        cost_basis: 'uk',
        pool: 'all',
        fiat_by: 'run year-end',
        basis_by: 'run year-end',
      },
    ]);
    // The year's disposals are still the UK rules', as many.
    const again = await query(
      `SELECT match_rule, count(*) AS n FROM disposals WHERE disposed_at < '${YEAR + 1}-01-01' GROUP BY ALL ORDER BY ALL`,
    );
    expect(again).toEqual(before);
    expect(before.length > 0 && before.every((r) => UK_RULES.includes(String(r['match_rule'])))).toBe(true);
  });

  it('refuses a year that has not begun in one line, writing nothing, and says the year under way is to date', async () => {
    const before = await readdir(join(dir, 'exports'));
    const refused = await run('export', '--year', String(NEXT));
    expect([refused.status, refused.stdout, refused.stderr.trim()]).toEqual([
      2,
      '',
      `ledgerpipe: --year ${NEXT}: ${NEXT} has not begun; the last complete year is ${YEAR}`,
    ]);
    expect(await readdir(join(dir, 'exports'))).toEqual(before);
    const after = await files(`exports/${YEAR}`);
    for (const [name, bytes] of filed) expect(after.get(name)?.equals(bytes), name).toBe(true);
    // The year under way is to date: its report says so, and up to when its records were read.
    const report = await run('report', '--year', String(YEAR + 1));
    expect([report.status, report.stderr]).toEqual([0, '']);
    const page = await readFile(join(dir, 'exports', `${YEAR + 1}-to-date`, 'report.html'), 'utf8');
    expect(page).toMatch(
      /<b id="to-date">to date: read up to \d{4}-\d{2}-\d{2}T[\d:.]+Z<\/b>, the rest of the period not yet past/,
    );
  });

  it('changes a setting only when told, says so in one line, recomputes, and status lists it', async () => {
    const changed = await runCliProcess(['export', '--year', String(YEAR), '--cost-basis', 'fifo', '--format', 'csv'], {
      env,
      cwd: dir,
    });
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stderr).toContain('cost basis: uk -> fifo; disposals recomputed');
    expect(changed.stderr).toContain('pool: all -> account; disposals recomputed');
    expect(await query(`SELECT DISTINCT cost_basis FROM disposals`)).toEqual([{ cost_basis: 'fifo' }]);
    // Its files are the year's own: the CSV of the FIFO disposals.
    expect(await readFile(join(dir, 'exports', String(YEAR), 'disposals.csv'), 'utf8')).not.toBe(
      filed.get('disposals.csv')?.toString('utf8'),
    );
    const status = await runCliProcess(['status'], { env, cwd: dir });
    expect(status.stdout).toMatch(/^ {2}cost basis +fifo \(set \S+ by export\)$/m);
    expect(status.stdout).toMatch(/^ {2}fiat +GBP \(set \S+ by run year-end\)$/m);
    // A command not given the fiat keeps it: GBP still.
    expect(await query('SELECT fiat FROM settings')).toEqual([{ fiat: 'GBP' }]);
  });
});
