import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliHere, simEnv } from '../helpers/cli.js';

let dir: string;
let sim: Simulator;
let db: string;
let out: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-gaps-'));
  db = join(dir, 'w.duckdb');
  out = join(dir, 'out');
  sim = await startSimulator({
    seed: 'gaps',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2025, 3, 1),
    records: 300,
    rateScale: 100,
    pendingMs: 0,
  });
  const env = simEnv(sim.credentials);
  const run = await runCliHere(
    [
      'run',
      'year-end',
      '--from',
      '2025-01-01',
      '--to',
      '2025-04-01',
      '--base-url',
      sim.baseUrl,
      '--db',
      db,
      '--out',
      out,
      '--rate-scale',
      '100',
      '--quiet',
    ],
    { env },
  );
  expect([run.status, run.stderr]).toEqual([0, '']);
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

interface Manifest {
  created_at: string;
  catalog_version: string;
  range: { from: string; to: string; time_zone: string };
  streams: string[];
  coverage: unknown[];
  files: { name: string; rows: number; sha256: string }[];
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
/** The files in --out with their SHA-256, to see that nothing was touched. */
async function files(): Promise<Record<string, string>> {
  const names = (await readdir(out)).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(async (n) => [
        n,
        createHash('sha256')
          .update(await readFile(join(out, n)))
          .digest('hex'),
      ]),
    ),
  );
}
const exportArgs = (...args: string[]) => ['export', '--db', db, '--out', out, ...args];

describe('the gap rule: export writes nothing for a range the warehouse does not cover', () => {
  it('refuses a year the warehouse holds nothing of, naming each stream and the command that fills it', async () => {
    const before = await files();
    const result = await runCliHere(
      exportArgs('--from', '2024-10-01', '--to', '2025-01-01', '--streams', 'withdrawals,margin_records'),
    );
    // Both carry lots: the year-end read them back to the account's opening, five days before its range
    // (docs/history.md): the gap ends there.
    const span = '2024-10-01T00:00:00.000Z .. 2024-12-27T00:00:00.000Z';
    const fill = (stream: string) =>
      `(fill with: ledgerpipe extract --from 2024-10-01T00:00:00.000Z --to 2024-12-27T00:00:00.000Z --streams ${stream})`;
    expect([result.status, lastLine(result.stderr)]).toEqual([
      4,
      `ledgerpipe: the warehouse does not cover the whole range: default margin_records ${span} ${fill('margin_records')}; default withdrawals ${span} ${fill('withdrawals')}; no files were written (add --allow-gaps to write them with the gaps)`,
    ]);
    expect(await files()).toEqual(before);
    // Without --streams, every stream the warehouse holds: the eight paged ones, not the balance snapshot.
    const all = await runCliHere(exportArgs('--from', '2024-10-01', '--to', '2025-01-01'));
    expect(all.status).toBe(4);
    expect([...(lastLine(all.stderr) ?? '').matchAll(/default (\w+) 2024/g)].map((m) => m[1])).toEqual([
      'margin_records',
      'futures_fills',
      'withdrawals',
      'p2p_advertisements',
      'deposits',
      'futures_tax_records',
      'spot_tax_records',
      'p2p_tax_records',
    ]);
  });

  it('refuses a local year whose first hours a UTC run did not read, and writes them with --allow-gaps, still exit 4', async () => {
    const before = await files();
    // futures_fills: a stream read over the range only, not back to the opening (docs/history.md).
    const args = exportArgs(
      '--from',
      '2025-01-01',
      '--to',
      '2025-04-01',
      '--tz',
      'Pacific/Auckland',
      '--streams',
      'futures_fills',
    );
    const gap =
      'the warehouse does not cover the whole range: default futures_fills 2024-12-31T11:00:00.000Z .. 2025-01-01T00:00:00.000Z (fill with: ledgerpipe extract --from 2024-12-31T11:00:00.000Z --to 2025-01-01T00:00:00.000Z --streams futures_fills)';
    const refused = await runCliHere(args);
    expect([refused.status, lastLine(refused.stderr)]).toEqual([
      4,
      `ledgerpipe: ${gap}; no files were written (add --allow-gaps to write them with the gaps)`,
    ]);
    expect(await files()).toEqual(before);
    const written = await runCliHere([...args, '--allow-gaps']);
    expect([written.status, lastLine(written.stderr)]).toEqual([4, `ledgerpipe: ${gap}`]);
    const after = await files();
    expect(after['futures_fills.csv']).not.toBe(before['futures_fills.csv']);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    // The manifest records the gap the files were written with.
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect([manifest.range, manifest.streams, manifest.coverage]).toEqual([
      { from: '2024-12-31T11:00:00.000Z', to: '2025-03-31T11:00:00.000Z', time_zone: 'Pacific/Auckland' },
      ['futures_fills'],
      [
        {
          account: 'default',
          stream: 'futures_fills',
          covered: [{ from: '2025-01-01T00:00:00.000Z', to: '2025-03-31T11:00:00.000Z' }],
          gaps: [{ from: '2024-12-31T11:00:00.000Z', to: '2025-01-01T00:00:00.000Z' }],
          earliest_reachable: null,
        },
      ],
    ]);
  });

  it('holds report to the same rule: no page for an uncovered range, and with --allow-gaps a page that names the gap', async () => {
    const before = await files();
    const args = [
      'report',
      '--db',
      db,
      '--out',
      out,
      '--from',
      '2025-01-01',
      '--to',
      '2025-04-01',
      '--tz',
      'Pacific/Auckland',
      '--streams',
      'futures_fills',
    ];
    const gap = 'default futures_fills 2024-12-31T11:00:00.000Z .. 2025-01-01T00:00:00.000Z';
    const refused = await runCliHere(args);
    expect([
      refused.status,
      lastLine(refused.stderr)?.includes(gap),
      lastLine(refused.stderr)?.endsWith('no files were written (add --allow-gaps to write them with the gaps)'),
    ]).toEqual([4, true, true]);
    expect(await files()).toEqual(before);
    const written = await runCliHere([...args, '--allow-gaps']);
    expect(written.status).toBe(4);
    const page = await readFile(join(out, 'report.html'), 'utf8');
    expect(page).toContain(
      '<li>Gap: default futures_fills is not in the warehouse for 2024-12-31T11:00:00.000Z .. 2025-01-01T00:00:00.000Z; the figures leave it out.</li>',
    );
    // Only the page was written (and the export journal that records it): no other file, no manifest.
    const after = await files();
    expect(Object.keys(after).filter((name) => after[name] !== before[name])).toEqual([
      '.ledgerpipe-export.json',
      'report.html',
    ]);
  });

  it('writes a range the warehouse covers, exit 0, with a manifest of the set that a rerun repeats but for its time', async () => {
    // The tests above set the warehouse's time zone to Auckland's (docs/settings.md): back to UTC, said in one line.
    const result = await runCliHere(exportArgs('--from', '2025-01-01', '--to', '2025-04-01', '--tz', 'UTC'));
    // The one warning: the fiat deposits' EUR has no pair to price it by (docs/values.md).
    expect([result.status, result.stderr]).toEqual([
      0,
      'time zone: Pacific/Auckland -> UTC; values remade, disposals recomputed\nwarn: 1 EUR movements of the range have no USDT price: their value is left empty (docs/values.md)\n',
    ]);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const version = (
      JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    const hashes = await files();
    const quarter = [{ from: '2025-01-01T00:00:00.000Z', to: '2025-04-01T00:00:00.000Z' }];
    expect({ ...manifest, created_at: 'x', catalog_version: 'x' }).toEqual({
      created_at: 'x',
      ledgerpipe_version: version,
      catalog_version: 'x',
      range: { from: '2025-01-01T00:00:00.000Z', to: '2025-04-01T00:00:00.000Z', time_zone: 'UTC' },
      fiat: null,
      fiat_source: null,
      accounts: ['default'],
      streams: [
        'margin_records',
        'futures_fills',
        'withdrawals',
        'p2p_advertisements',
        'deposits',
        'futures_tax_records',
        'spot_tax_records',
        'p2p_tax_records',
      ],
      coverage: manifest.streams.map((stream) => ({
        account: 'default',
        stream,
        covered: quarter,
        gaps: [],
        earliest_reachable: null,
      })),
      // One consistent account, nothing dropped: no finding, every transfer paired, every balance endpoint read.
      completeness: {
        findings: 0,
        counts: { balance_breaks: 0, sign_mismatches: 0, unexplained: 0, unpaired_transfers: 0 },
        running_balance_steps: (manifest as unknown as { completeness: { running_balance_steps: unknown } })
          .completeness.running_balance_steps,
        // One run, one snapshot: none compared with the ledger.
        snapshots: { whole: 1, pairs_compared: 0 },
        balance_breaks: [],
        sign_mismatches: [],
        unexplained: [],
        unpaired_transfers: [],
        unavailable: [],
      },
      files: [
        'margin_records.csv',
        'margin_records.parquet',
        'futures_fills.csv',
        'futures_fills.parquet',
        'withdrawals.csv',
        'withdrawals.parquet',
        'deposits.csv',
        'deposits.parquet',
        'ledger.csv',
        'ledger.parquet',
        'ledger_valued.csv',
        'ledger_valued.parquet',
        'year_summary.csv',
        'year_summary.parquet',
        'disposals.csv',
        'disposals.parquet',
        'form8949.csv',
      ].map((name) => ({
        name,
        rows: manifest.files.find((f) => f.name === name)?.rows,
        sha256: hashes[name],
      })),
    });
    // Rows as the files hold them: a CSV's lines less its header.
    const ledgerLines = (await readFile(join(out, 'ledger.csv'), 'utf8')).trimEnd().split('\n').length - 1;
    expect(manifest.files.find((f) => f.name === 'ledger.csv')?.rows).toBe(ledgerLines);
    expect(manifest.catalog_version).toMatch(/^[0-9a-f]{64}$/);
    await runCliHere(exportArgs('--from', '2025-01-01', '--to', '2025-04-01'));
    const again = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect({ ...again, created_at: '' }).toEqual({ ...manifest, created_at: '' });
    expect(again.created_at > manifest.created_at).toBe(true);
  });
});
