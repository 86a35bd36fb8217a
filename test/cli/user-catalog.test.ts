import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, simEnv } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

// The user's own type-catalog rows (docs/ledger.md, "Adding a type"): --catalog FILE or the config's catalog adds a
// type the package lacks and replaces a row it has, and the catalog's version covers the file.

const HEADER =
  'source,field,type,category,direction,tax_class,trade_role,koinly_in,koinly_out,cointracking_in,cointracking_out,meaning,documented_in';
const MINE = [
  HEADER,
  // A type the simulator serves and the package lacks: booked as a transfer out instead of unreviewed.
  'margin_records,marginTaxType,special_transfer_out,transfer_out,out,internal_transfer,,,,,,"A transfer out of margin, seen in our own records",our records of 2025-01',
  // A package row replaced: risk-fund compensation booked as income, under a category of its own.
  'margin_records,marginTaxType,compensate,compensation_income,in,income,,income,,Income,,Compensation we declare as income,our accountant',
  '',
].join('\n');

let dir: string;
let sim: Simulator;
const cli = (...args: string[]) =>
  runCliHere([...args, '--db', join(dir, 'w.duckdb'), '--out', join(dir, 'out'), '--format', 'csv', '--quiet'], {
    env: simEnv(sim.credentials),
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-catalog-'));
  sim = await startSimulator({
    seed: 'catalog',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 1, 1),
    records: 20,
    rateScale: 100,
    pendingMs: 0,
  });
  await writeFile(join(dir, 'mine.csv'), MINE);
  // The config names the file from its own folder, whatever folder the command runs in.
  await writeFile(
    join(dir, 'ledgerpipe.config.json'),
    JSON.stringify({
      catalog: './mine.csv',
      accounts: [
        {
          name: 'default',
          baseUrl: sim.baseUrl,
          env: { key: 'LEDGERPIPE_API_KEY', secret: 'LEDGERPIPE_API_SECRET', passphrase: 'LEDGERPIPE_API_PASSPHRASE' },
        },
      ],
    }),
  );
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

interface Booked {
  categories: Record<string, unknown>[];
  unreviewed: Record<string, unknown>[];
}

/** Per note (margin type and type), the categories the ledger books it under. */
const categoriesByNote = (b: Booked): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const r of b.categories) (out[String(r['note'])] ??= []).push(String(r['category']));
  return out;
};

/** What the ledger books of the two types, and which types are unreviewed. */
async function booked(): Promise<Booked> {
  const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
  try {
    return {
      categories: await rows(
        warehouse,
        "SELECT note, category, count(*) AS n FROM ledger WHERE note IN ('crossed special_transfer_out', 'marginTaxType special_transfer_out', 'crossed compensate', 'isolated compensate') GROUP BY ALL ORDER BY ALL",
      ),
      unreviewed: await rows(warehouse, 'SELECT DISTINCT type FROM unreviewed_types ORDER BY 1'),
    };
  } finally {
    await warehouse.close();
  }
}

describe("--catalog: the user's own type-catalog rows", () => {
  it("adds a type and replaces a row, the version covering the file; a run without it books the package's rows again", async () => {
    const run = await cli(
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--base-url',
      sim.baseUrl,
      '--rate-scale',
      '100',
      '--catalog',
      join(dir, 'mine.csv'),
    );
    expect([run.status, run.stderr]).toEqual([0, '']);
    const seeds = (await readdir(new URL('../../sql/seeds/', import.meta.url)))
      .filter((n) => n.endsWith('.csv'))
      .sort();
    const bytes = await Promise.all(seeds.map((n) => readFile(new URL(`../../sql/seeds/${n}`, import.meta.url))));
    const version = createHash('sha256')
      .update(Buffer.concat([...bytes, Buffer.from(MINE)]))
      .digest('hex');
    expect(JSON.parse(await readFile(join(dir, 'out', 'manifest.json'), 'utf8')).catalog_version).toBe(version);
    const mine = await booked();
    expect(categoriesByNote(mine)).toEqual({
      'crossed compensate': ['compensation_income'],
      'crossed special_transfer_out': ['transfer_out'],
      'isolated compensate': ['compensation_income'],
    });
    expect(mine.unreviewed).toEqual([
      { type: 'Card cashback-user in' },
      { type: 'appeal_adjustment' },
      { type: 'contract_settle_adjust' },
    ]);

    // An export without the file: the warehouse keeps the rows it was given (docs/settings.md), so it exports with
    // them.
    const bare = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'other'),
      '--format',
      'csv',
      '--quiet',
    ]);
    expect([bare.status, bare.stderr]).toEqual([0, '']);
    expect(JSON.parse(await readFile(join(dir, 'other', 'manifest.json'), 'utf8')).catalog_version).toBe(version);
    // The config's catalog is the same file: its export is written.
    const configured = await runCliHere([
      'export',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'configured'),
      '--config',
      join(dir, 'ledgerpipe.config.json'),
      '--format',
      'csv',
      '--quiet',
    ]);
    expect([configured.status, configured.stderr]).toEqual([0, '']);

    // --catalog none: back to the package's rows; the type is unreviewed again, compensation is compensation.
    const again = await runCliHere(['transform', '--db', join(dir, 'w.duckdb'), '--catalog', 'none']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`type catalog: ${version.slice(0, 12)} -> `);
    expect(again.stderr).toContain('; the ledger is booked again by this transform\n');
    const theirs = await booked();
    // An unreviewed row's note is its field and type (docs/ledger.md, "Types not in the catalog").
    expect(categoriesByNote(theirs)).toEqual({
      'crossed compensate': ['compensation'],
      'isolated compensate': ['compensation'],
      'marginTaxType special_transfer_out': ['unreviewed'],
    });
    expect(theirs.unreviewed).toContainEqual({ type: 'special_transfer_out' });
  });

  it('refuses a file it cannot read, and a row the catalog check finds inconsistent', async () => {
    const missing = await cli('transform', '--catalog', join(dir, 'nope.csv'));
    expect([missing.status, missing.stderr]).toEqual([
      2,
      `ledgerpipe: --catalog ${join(dir, 'nope.csv')} cannot be read (ENOENT); give a CSV file with the columns of sql/seeds/type_catalog.csv\n`,
    ]);
    await writeFile(
      join(dir, 'bad.csv'),
      `${HEADER}\nmargin_records,marginTaxType,special_transfer_out,transfer_out,sideways,internal_transfer,,,,,,x,y\n`,
    );
    const bad = await cli('transform', '--catalog', join(dir, 'bad.csv'));
    expect(bad.status).toBe(4);
    expect(bad.stderr).toContain(
      'margin_records marginTaxType special_transfer_out: direction sideways is not in, out, signed, none or by_name',
    );
  });
});
