import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

/**
 * A warehouse the third release made (d28d1a8: `run year-end --from 2025-03-01 --to 2025-04-01 --fiat EUR
 * --cost-basis uk` against `ledgerpipe sim --seed 7 --records 300`), kept gzipped in test/fixtures/release-3/ with
 * the manifest and disposals.csv that run wrote into ./exports/, as that release wrote its one set (docs/upgrading.md).
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/release-3/', import.meta.url));

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-upgrade-third-'));
  await pipeline(
    createReadStream(join(FIXTURE, 'warehouse.duckdb.gz')),
    createGunzip(),
    createWriteStream(join(dir, 'ledgerpipe.duckdb')),
  );
  await mkdir(join(dir, 'exports'));
  for (const name of ['manifest.json', 'disposals.csv'])
    await copyFile(join(FIXTURE, name), join(dir, 'exports', name));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a warehouse and exports of the third release', () => {
  it("start their settings from what it recorded, and move its files into their period's folder", async () => {
    const status = await runCliProcess(['status'], { cwd: dir });
    expect(status.status, status.stderr).toBe(0);
    // What the third release recorded: the valuation of its views, the cost basis of its last export.
    expect(status.stdout).toMatch(/^ {2}fiat +EUR \(set by an earlier release\)$/m);
    expect(status.stdout).toMatch(/^ {2}cost basis +uk \(set by an earlier release\)$/m);
    expect(status.stdout).toMatch(/^ {2}pool +all \(default\)$/m);
    // Renamed in place (sql/warehouse/013_plain_names.sql), before any transform: the views read the new names,
    // `status` above read holdings and reconciliation, and `query` (read-only) reads them bare.
    const names = await runCliProcess(
      [
        'query',
        '--format',
        'csv',
        `SELECT table_name, column_name FROM duckdb_columns()
      WHERE table_name IN ('holding_quantities', 'holdings', 'reconciliation', 'disposals')
        AND column_name IN ('at', 'as_of', 'from', 'to', 'period_start', 'period_end', 'is_disposal') ORDER BY ALL`,
      ],
      { cwd: dir },
    );
    expect(names.stdout.trim().split('\n')).toEqual([
      'table_name,column_name',
      'disposals,is_disposal',
      'holding_quantities,as_of',
      'holdings,as_of',
      'reconciliation,period_end',
      'reconciliation,period_start',
    ]);
    // The data kept: the holdings the third release derived, valued as its own view valued them (11 rows, EUR
    // 36,571,539.094749408996145), and its slices, a withdrawal's not disposals.
    const kept = await runCliProcess(
      [
        'query',
        '--format',
        'csv',
        `SELECT
      (SELECT count(*) FROM holdings WHERE as_of = TIMESTAMPTZ '2025-04-01 00:00:00+00' AND value_eur IS NOT NULL) AS valued_at_end,
      (SELECT lp_total(value_eur) FROM holdings WHERE as_of = TIMESTAMPTZ '2025-04-01 00:00:00+00') AS value_at_end,
      (SELECT count(*) FROM holding_quantities) AS holdings,
      (SELECT count(*) FROM reconciliation WHERE period_start < period_end) AS reconciled,
      (SELECT count(*) FROM disposals WHERE is_disposal) AS disposals,
      (SELECT count(*) FROM disposals WHERE NOT is_disposal AND match_rule LIKE 'withdrawal\\_%' ESCAPE '\\') AS withdrawn`,
      ],
      { cwd: dir },
    );
    expect(kept.stdout, kept.stderr).toBe(
      'valued_at_end,value_at_end,holdings,reconciled,disposals,withdrawn\n11,36571539.094749408996145,90,0,245,7\n',
    );
    const transform = await runCliProcess(['transform', '--quiet'], { cwd: dir });
    expect(transform.status, transform.stderr).toBe(0);
    const exported = await runCliProcess(['export', '--from', '2025-03-01', '--to', '2025-04-01', '--format', 'csv'], {
      cwd: dir,
    });
    // The simulated account of that release starts with holdings no record explains: the gains say so (exit 4).
    expect(exported.status, exported.stderr).toBe(4);
    expect(exported.stderr).toContain(
      `moved the 2 files of 2025-03-01 to 2025-04-01 an earlier release wrote at the top of ./exports into ${join('exports', '2025-03-01_2025-04-01')}`,
    );
    expect((await readdir(join(dir, 'exports'))).sort()).toEqual(['2025-03-01_2025-04-01']);
    // Same records, same rules, same settings, kept without a flag: the same disposals, byte for byte, and the
    // column this release adds last: is_disposal, false for a withdrawal's slices (match_rule, the 11th column).
    const filed = (await readFile(join(FIXTURE, 'disposals.csv'), 'utf8')).trimEnd().split('\n');
    const withColumn = filed.map(
      (line, i) => `${line},${i === 0 ? 'is_disposal' : !(line.split(',')[10] ?? '').startsWith('withdrawal_')}`,
    );
    expect(
      (await readFile(join(dir, 'exports', '2025-03-01_2025-04-01', 'disposals.csv'), 'utf8')).trimEnd().split('\n'),
    ).toEqual(withColumn);
    const warehouse = await openWarehouse(join(dir, 'ledgerpipe.duckdb'));
    try {
      expect(
        await rows(warehouse, 'SELECT fiat, fiat_source, time_zone, cost_basis, set_by.fiat AS by FROM settings'),
      ).toEqual([{ fiat: 'EUR', fiat_source: 'pair', time_zone: 'UTC', cost_basis: 'uk', by: 'an earlier release' }]);
    } finally {
      await warehouse.close();
    }
  });
});
