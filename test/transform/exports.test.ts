import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';
import { at, GOLDEN, T } from './fixtures.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;

// DuckDB with a thread per core (vitest.config.ts sets one): the bytes compared must not depend on it.
beforeAll(() => {
  vi.stubEnv('LEDGERPIPE_THREADS', '');
});
afterAll(() => {
  vi.unstubAllEnvs();
});
beforeEach(async () => {
  ({ warehouse, dir, dispose } = await tempWarehouse());
});
afterEach(() => dispose());

/**
 * What an export leaves on the warehouse's connection, where its COPYs run: temporary tables and views, bound
 * variables, and DuckDB's insertion order (kept, its default).
 */
async function leftOnConnection(warehouse: Warehouse): Promise<Record<string, unknown>> {
  return {
    temporary: await rows(
      warehouse,
      // The loader's staging tables (lp_stage_*) stay on the connection by design: the loader's, not the export's.
      "SELECT name FROM (SELECT table_name AS name FROM duckdb_tables() WHERE temporary UNION ALL SELECT view_name FROM duckdb_views() WHERE temporary AND NOT internal) WHERE NOT starts_with(name, 'lp_stage_') ORDER BY name",
    ),
    variables: await rows(warehouse, 'SELECT name FROM duckdb_variables() ORDER BY name'),
    order: await rows(warehouse, "SELECT current_setting('preserve_insertion_order') AS kept"),
  };
}
const NOTHING_LEFT = { temporary: [], variables: [], order: [{ kept: 'true' }] };

const margin = (id: string, ts: number, amount: string, fee = '0'): RawInput => ({
  stream: 'margin_records',
  partition: 'crossed',
  key: id,
  ts,
  payload: {
    id,
    coin: 'USDT',
    symbol: 'BTC,USDT "x"',
    marginTaxType: 'transfer_in',
    amount,
    fee,
    total: amount,
    ts: String(ts),
  },
});

describe('exports', () => {
  it('keep amounts exact from raw to typed, ledger, CSV and Parquet', async () => {
    const big = '12345678901234567890.123456789012345678';
    await loadRaw(warehouse, [
      margin('1', at(1), '0.1'),
      margin('2', at(2), '0.2'),
      margin('3', at(3), big, '-0.000000000000000001'),
    ]);
    await runTransforms(warehouse);
    expect(
      await rows(warehouse, "SELECT CAST(sum(amount) AS VARCHAR) AS s FROM ledger WHERE source_id IN ('1', '2')"),
    ).toEqual([{ s: '0.300000000000000000' }]);
    expect(await rows(warehouse, "SELECT CAST(amount AS VARCHAR) AS a FROM margin_records WHERE id = '3'")).toEqual([
      { a: big },
    ]);
    const out = join(dir, 'out');
    await exportFiles(warehouse, { out, from: T, to: T + 60_000, formats: ['csv', 'parquet'] });
    const csv = await readFile(join(out, 'ledger.csv'), 'utf8');
    // trade_group is empty (transfers pair with nothing); the last column is the account type.
    expect(csv.split('\n').slice(1, 5)).toEqual([
      `margin_records:1:main,default,margin_records,1,main,2025-06-01T00:00:01.000Z,transfer_in,USDT,0.1,"BTC,USDT ""x""",1,crossed transfer_in,,margin_crossed`,
      `margin_records:2:main,default,margin_records,2,main,2025-06-01T00:00:02.000Z,transfer_in,USDT,0.2,"BTC,USDT ""x""",2,crossed transfer_in,,margin_crossed`,
      `margin_records:3:fee,default,margin_records,3,fee,2025-06-01T00:00:03.000Z,fee,USDT,-0.000000000000000001,"BTC,USDT ""x""",3,crossed transfer_in,,margin_crossed`,
      `margin_records:3:main,default,margin_records,3,main,2025-06-01T00:00:03.000Z,transfer_in,USDT,${big},"BTC,USDT ""x""",3,crossed transfer_in,,margin_crossed`,
    ]);
    const parquet = await rows(
      warehouse,
      `SELECT CAST(amount AS VARCHAR) AS amount, typeof(amount) AS type FROM read_parquet('${join(out, 'ledger.parquet')}') ORDER BY entry_id`,
    );
    expect(parquet).toEqual([
      { amount: '0.100000000000000000', type: 'DECIMAL(38,18)' },
      { amount: '0.200000000000000000', type: 'DECIMAL(38,18)' },
      { amount: '-0.000000000000000001', type: 'DECIMAL(38,18)' },
      { amount: big, type: 'DECIMAL(38,18)' },
    ]);
  });

  it('write only [from, to), ordered by ts then key, with a header, RFC 4180 quoting and \\n line ends', async () => {
    await loadRaw(warehouse, [
      margin('9', T + 10_000, '1'),
      margin('8', T + 10_000, '2'),
      margin('7', T, '3'),
      margin('6', T - 1, '4'),
      margin('5', T + 20_000, '5'),
    ]);
    await runTransforms(warehouse);
    const out = join(dir, 'out');
    const files = await exportFiles(warehouse, { out, from: T, to: T + 20_000, formats: ['csv'] });
    expect(files.map((f) => [f.path.slice(out.length + 1), f.rows])).toEqual([
      ['margin_records.csv', 3],
      ['futures_fills.csv', 0],
      ['withdrawals.csv', 0],
      ['deposits.csv', 0],
      ['ledger.csv', 3],
      ['ledger_valued.csv', 3],
      ['year_summary.csv', 1],
    ]);
    // The valued ledger: the ledger's columns, then the price and value in USDT (USDT is 1) and the tax class.
    expect((await readFile(join(out, 'ledger_valued.csv'), 'utf8')).split('\n').slice(0, 2)).toEqual([
      'entry_id,account,source,source_id,leg,ts,category,asset,amount,symbol,reference,note,trade_group,account_type,price_usdt,value_usdt,tax_class',
      'margin_records:7:main,default,margin_records,7,main,2025-06-01T00:00:00.000Z,transfer_in,USDT,3,"BTC,USDT ""x""",7,crossed transfer_in,,margin_crossed,1,3,internal_transfer',
    ]);
    // The view users query is the file's rows: the same columns, tax class and all.
    const viewColumns = (await rows(warehouse, 'SELECT column_name FROM (DESCRIBE ledger_valued)'))
      .map((r) => r['column_name'])
      .join(',');
    expect(viewColumns).toBe(
      'entry_id,account,source,source_id,leg,ts,category,asset,amount,symbol,reference,note,trade_group,account_type,price_usdt,value_usdt,tax_class',
    );
    expect(
      await rows(warehouse, "SELECT tax_class FROM ledger_valued WHERE entry_id = 'margin_records:7:main'"),
    ).toEqual([{ tax_class: 'internal_transfer' }]);
    const text = await readFile(join(out, 'margin_records.csv'), 'utf8');
    expect(text).toBe(
      [
        'account,margin_type,id,coin,symbol,margin_tax_type,amount,fee,total,ts',
        'default,crossed,7,USDT,"BTC,USDT ""x""",transfer_in,3,0,3,2025-06-01T00:00:00.000Z',
        'default,crossed,8,USDT,"BTC,USDT ""x""",transfer_in,2,0,2,2025-06-01T00:00:10.000Z',
        'default,crossed,9,USDT,"BTC,USDT ""x""",transfer_in,1,0,1,2025-06-01T00:00:10.000Z',
        '',
      ].join('\n'),
    );
    expect(await readdir(out)).toEqual([
      '.ledgerpipe-export.json',
      'deposits.csv',
      'futures_fills.csv',
      'ledger.csv',
      'ledger_valued.csv',
      'margin_records.csv',
      'withdrawals.csv',
      'year_summary.csv',
    ]);
  });

  it('give the ledger and the valued ledger the local time of --tz after their columns', async () => {
    await loadRaw(warehouse, [margin('7', T, '3')]);
    await runTransforms(warehouse);
    const out = join(dir, 'local');
    await exportFiles(warehouse, {
      out,
      from: T,
      to: T + 60_000,
      formats: ['csv'],
      valuation: { fiat: null, fiatSource: null, timeZone: 'Europe/Berlin' },
    });
    const [ledgerHead, ledgerRow] = (await readFile(join(out, 'ledger.csv'), 'utf8')).split('\n');
    const [valuedHead, valuedRow] = (await readFile(join(out, 'ledger_valued.csv'), 'utf8')).split('\n');
    // 2025-06-01T00:00:00Z is two hours later on Berlin's summer time.
    expect([
      ledgerHead?.endsWith(',ts_local,date_local'),
      ledgerRow?.endsWith(',2025-06-01T02:00:00.000,2025-06-01'),
    ]).toEqual([true, true]);
    expect([
      valuedHead?.endsWith(',price_usdt,value_usdt,tax_class,ts_local,date_local'),
      valuedRow?.endsWith(',1,3,internal_transfer,2025-06-01T02:00:00.000,2025-06-01'),
    ]).toEqual([true, true]);
  });

  it('give byte-identical CSV for the same range twice, and Parquet rows equal to the CSV rows', async () => {
    await loadRaw(warehouse, GOLDEN);
    await runTransforms(warehouse);
    const first = join(dir, 'a');
    const second = join(dir, 'b');
    await exportFiles(warehouse, { out: first, from: T, to: T + 3_600_000, formats: ['csv', 'parquet'] });
    await runTransforms(warehouse);
    await exportFiles(warehouse, { out: second, from: T, to: T + 3_600_000, formats: ['csv', 'parquet'] });
    for (const name of ['margin_records', 'futures_fills', 'withdrawals', 'ledger']) {
      const [a, b] = await Promise.all([readFile(join(first, `${name}.csv`)), readFile(join(second, `${name}.csv`))]);
      expect(a.equals(b), name).toBe(true);
      const csv = await rows(
        warehouse,
        `SELECT * FROM read_csv('${join(first, `${name}.csv`)}', all_varchar = true, header = true)`,
      );
      const parquetColumns = await rows(
        warehouse,
        `DESCRIBE SELECT * FROM read_parquet('${join(first, `${name}.parquet`)}')`,
      );
      const cells = parquetColumns.map((c) =>
        c['column_type']?.startsWith('DECIMAL')
          ? `lp_decimal_text("${c['column_name']}") AS "${c['column_name']}"`
          : c['column_type'] === 'TIMESTAMP WITH TIME ZONE'
            ? `lp_time_text("${c['column_name']}") AS "${c['column_name']}"`
            : `CAST("${c['column_name']}" AS VARCHAR) AS "${c['column_name']}"`,
      );
      const parquet = await rows(
        warehouse,
        `SELECT ${cells.join(', ')} FROM read_parquet('${join(first, `${name}.parquet`)}')`,
      );
      expect(parquet, name).toEqual(csv);
      expect(csv.length, name).toBeGreaterThan(0);
    }
  });

  it('write the report alone with the valued rows of its range made for it, the same page as beside the tables', async () => {
    await loadRaw(warehouse, GOLDEN);
    await runTransforms(warehouse);
    const range = { from: T, to: T + 3_600_000 };
    const page = async (name: string, formats: ('csv' | 'report')[]) => {
      await exportFiles(warehouse, { out: join(dir, name), ...range, formats, report: { coverage: [] } });
      expect(await leftOnConnection(warehouse)).toEqual(NOTHING_LEFT);
      // The charting library numbers its class names per process: the second page's differ.
      return (await readFile(join(dir, name, 'report.html'), 'utf8')).replace(/zr\d+-cls-\d+/g, 'zr-cls');
    };
    const alone = await page('alone', ['report']);
    expect(alone).toContain('<h2>');
    expect(alone).toBe(await page('beside', ['csv', 'report']));
  });

  it('refuse an --out that cannot be a folder, leaving what is there whole', async () => {
    await loadRaw(warehouse, GOLDEN);
    await runTransforms(warehouse);
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'previous\n');
    const out = join(file, 'exports');
    await expect(exportFiles(warehouse, { out, from: T, to: T + 3_600_000, formats: ['csv'] })).rejects.toThrow(
      `cannot write to --out ${out} (ENOTDIR); choose a folder you can write to`,
    );
    expect(await readFile(file, 'utf8')).toBe('previous\n');
  });

  it('leave the previous files whole and no temporary file behind when a write fails half way', async () => {
    await loadRaw(warehouse, GOLDEN);
    await runTransforms(warehouse);
    const out = join(dir, 'out');
    await exportFiles(warehouse, { out, from: T, to: T + 3_600_000, formats: ['csv'] });
    const before = await Promise.all(
      ['margin_records', 'futures_fills', 'withdrawals', 'ledger'].map((n) => readFile(join(out, `${n}.csv`))),
    );
    // The third file's temporary name is taken by a folder: its COPY fails after two files were written.
    await mkdir(join(out, `.withdrawals.csv.${process.pid}.tmp`));
    await expect(exportFiles(warehouse, { out, from: T, to: T + 60_000, formats: ['csv'] })).rejects.toThrow(
      /^cannot write the exports to --out .*; the previous exports are untouched$/,
    );
    const after = await Promise.all(
      ['margin_records', 'futures_fills', 'withdrawals', 'ledger'].map((n) => readFile(join(out, `${n}.csv`))),
    );
    expect(after.map((b, i) => b.equals(before[i] as Buffer))).toEqual([true, true, true, true]);
    // The COPYs ran on the warehouse's connection: the failed one left nothing there for the next piece of work.
    expect(await leftOnConnection(warehouse)).toEqual(NOTHING_LEFT);
    // Nothing of the failed set is left; the journal is the previous set's, complete.
    expect(
      (await readdir(out)).filter((n) => n.startsWith('.') && n !== `.withdrawals.csv.${process.pid}.tmp`),
    ).toEqual(['.ledgerpipe-export.json']);
    const journal = JSON.parse(await readFile(join(out, '.ledgerpipe-export.json'), 'utf8')) as {
      state: string;
      files: { final: string }[];
    };
    expect([journal.state, journal.files.map((f) => f.final)]).toEqual([
      'complete',
      [
        'margin_records.csv',
        'futures_fills.csv',
        'withdrawals.csv',
        'deposits.csv',
        'ledger.csv',
        'ledger_valued.csv',
        'year_summary.csv',
      ],
    ]);
  });
});
