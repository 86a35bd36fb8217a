import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import { neutraliseFormula } from '../../src/cli/query-output.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { runCliProcess } from '../helpers/cli.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';
import { parseCsv } from '../helpers/tax-files.js';

const T = Date.UTC(2025, 4, 1);
const HYPERLINK = '=HYPERLINK("http://evil.example/?x","click")';
let warehouse: Warehouse;
let dir: string;

beforeAll(async () => {
  ({ warehouse, dir } = await tempWarehouse());
  await loadRaw(warehouse, [
    {
      stream: 'withdrawals',
      key: '1',
      ts: T,
      payload: {
        orderId: '1',
        tradeId: HYPERLINK,
        coin: 'USDT',
        clientOid: '+cmd|calc',
        type: 'withdraw',
        dest: 'on_chain',
        size: '12.5',
        fee: '-0.5',
        status: 'success',
        fromAddress: '@SUM(1+1)',
        toAddress: '\tstarts with a tab',
        chain: '-erc20',
        confirm: '1',
        tag: '=1+1',
        cTime: String(T),
        uTime: String(T),
      },
    },
    {
      stream: 'margin_records',
      partition: 'crossed',
      key: '2',
      ts: T + 1000,
      payload: {
        id: '2',
        coin: 'USDT',
        symbol: '',
        marginTaxType: 'repay',
        amount: '-12.5',
        fee: '0',
        total: '1',
        ts: String(T + 1000),
      },
    },
  ]);
  await runTransforms(warehouse);
  for (const out of ['a', 'b'])
    await exportFiles(warehouse, {
      out: join(dir, out),
      from: T,
      to: T + 60_000,
      formats: ['csv', 'parquet', 'koinly', 'cointracking'],
    });
});
afterAll(async () => {
  await warehouse.close();
  await rm(dir, { recursive: true, force: true });
});

const table = async (file: string) => parseCsv(await readFile(join(dir, 'a', file), 'utf8'));
const column = (t: string[][], name: string) => t.slice(1).map((r) => r[(t[0] as string[]).indexOf(name)]);

describe('text a spreadsheet would take for a formula', () => {
  it('gets a single quote in front in every CSV; amounts keep their minus; Parquet keeps every value as it is', async () => {
    const withdrawals = await table('withdrawals.csv');
    expect(
      ['trade_id', 'client_oid', 'from_address', 'to_address', 'chain', 'tag', 'size', 'fee'].map(
        (c) => column(withdrawals, c)[0],
      ),
    ).toEqual([
      `'${HYPERLINK}`,
      "'+cmd|calc",
      "'@SUM(1+1)",
      "'\tstarts with a tab",
      "'-erc20",
      "'=1+1",
      '12.5',
      '-0.5',
    ]);
    const ledger = await table('ledger.csv');
    expect(column(ledger, 'reference')).toEqual([`'${HYPERLINK}`, `'${HYPERLINK}`, '2']);
    // A cell that merely holds a minus further on is left as it is.
    expect(column(ledger, 'note')).toEqual(['on_chain -erc20', 'on_chain -erc20', 'crossed repay']);
    expect(column(ledger, 'amount')).toEqual(['-0.5', '-12.5', '-12.5']);
    expect(column(await table('koinly.csv'), 'TxHash')).toEqual([`'${HYPERLINK}`, '']);
    expect(column(await table('cointracking.csv'), 'Comment')).toEqual([
      `withdrawal withdrawals:1:main withdrawals:1:fee tx ${HYPERLINK}`,
      'loan_repay margin_records:2:main',
    ]);
    expect(
      await rows(
        warehouse,
        `SELECT trade_id, tag, CAST(size AS VARCHAR) AS size FROM read_parquet('${join(dir, 'a', 'withdrawals.parquet')}')`,
      ),
    ).toEqual([{ trade_id: HYPERLINK, tag: '=1+1', size: '12.500000000000000000' }]);
    for (const file of ['withdrawals.csv', 'ledger.csv', 'koinly.csv', 'cointracking.csv']) {
      expect((await readFile(join(dir, 'a', file))).equals(await readFile(join(dir, 'b', file))), file).toBe(true);
    }
  });

  it('is neutralised the same way in query --format csv, text columns only', async () => {
    await warehouse.close();
    const result = await runCliProcess([
      'query',
      'SELECT tag, size, fee FROM withdrawals',
      '--db',
      join(dir, 'w.duckdb'),
      '--format',
      'csv',
    ]);
    expect([result.status, result.stdout]).toEqual([0, "tag,size,fee\n'=1+1,12.5,-0.5\n"]);
    const { openWarehouse } = await import('../../src/warehouse/warehouse.js');
    warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    const samples = ['=1', '+1', '-1', '-12.5', '+1e5', '-1-1', '@x', '\tx', '\rx', 'x=1', '', "'=1", 'plain'];
    const sql = `SELECT ${samples.map((s, i) => `lp_csv_text(${`'${s.replace(/'/g, "''")}'`}) AS c${i}`).join(', ')}`;
    expect(Object.values((await rows(warehouse, sql))[0] as object)).toEqual(samples.map(neutraliseFormula));
    expect(samples.map(neutraliseFormula)).toEqual([
      "'=1",
      '+1',
      '-1',
      '-12.5',
      "'+1e5",
      "'-1-1",
      "'@x",
      "'\tx",
      "'\rx",
      'x=1',
      '',
      "'=1",
      'plain',
    ]);
  });
});
