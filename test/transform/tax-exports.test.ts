import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN, T } from './fixtures.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dir, dispose } = await tempWarehouse());
  await loadRaw(warehouse, GOLDEN);
  await runTransforms(warehouse);
});
afterEach(() => dispose());

const KOINLY = `Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash
2025-06-01 00:00:02 UTC,,,0.5,BTC,,,,,margin loan,loan_borrow margin_records:103:main,
2025-06-01 00:00:03 UTC,0.25,BTC,,,,,,,margin repayment,loan_repay margin_records:104:main,
2025-06-01 00:00:04 UTC,0.00001234,BTC,,,,,,,loan fee,interest margin_records:105:main,
2025-06-01 00:00:05 UTC,3.2,USDT,,,,,,,margin fee,liquidation_fee margin_records:106:main,
2025-06-01 00:00:06 UTC,,,1.1,USDT,,,,,,compensation margin_records:107:main,
2025-06-01 00:00:07 UTC,0.000001,BTC,,,,,,,margin fee,fee margin_records:108:fee,
2025-06-01 00:00:07 UTC,,,0.01,BTC,,,,,,trade_in margin_records:108:main,
2025-06-01 00:00:08 UTC,0.65,USDT,,,,,,,margin fee,fee margin_records:109:fee,
2025-06-01 00:00:08 UTC,650.25,USDT,,,,,,,,trade_out margin_records:109:main,
2025-06-01 00:00:09 UTC,0.65,USDT,,,,,,,margin fee,trade_fee margin_records:110:main,
2025-06-01 00:00:10 UTC,2,USDT,,,,,,,,liquidation_loss margin_records:111:main,
2025-06-01 00:00:11 UTC,,,0.3,ETH,,,,,,conversion_in margin_records:112:main,
2025-06-01 00:00:12 UTC,900,USDT,,,,,,,,conversion_out margin_records:113:main,
2025-06-01 00:00:13 UTC,7.7,USDT,,,,,,,,unknown margin_records:114:main,
2025-06-01 00:00:20 UTC,0.6,USDT,,,,,,,margin fee,trading_fee futures_fills:201:fee1,
2025-06-01 00:00:21 UTC,,,0.1,USDT,,,,,realized gain,trading_fee futures_fills:202:fee1,
2025-06-01 00:00:21 UTC,,,12.5,USDT,,,,,realized gain,realized_pnl futures_fills:202:pnl,
2025-06-01 00:00:22 UTC,0.0001,ETH,,,,,,,margin fee,trading_fee futures_fills:203:fee1,
2025-06-01 00:00:22 UTC,0.05,BGB,,,,,,,margin fee,trading_fee futures_fills:203:fee2,
2025-06-01 00:00:22 UTC,0.002,ETH,,,,,,,realized gain,realized_pnl futures_fills:203:pnl,
2025-06-01 00:00:23 UTC,,,0.0003,BTC,,,,,realized gain,realized_pnl futures_fills:204:pnl,
2025-06-01 00:00:24 UTC,5,USDC,,,,,,,realized gain,realized_pnl futures_fills:205:pnl,
2025-06-01 00:00:26 UTC,1.5,USDT,,,,,,,margin fee,trading_fee futures_fills:207:fee1,
2025-06-01 00:00:26 UTC,0.5,USDT,,,,,,,margin fee,trading_fee futures_fills:207:fee2,
2025-06-01 00:00:26 UTC,100,USDT,,,,,,,realized gain,realized_pnl futures_fills:207:pnl,
2025-06-01 00:00:30 UTC,100,USDT,,,1,USDT,,,,withdrawal withdrawals:301:main,0xabc
2025-06-01 00:00:31 UTC,0.1,BTC,,,,,,,,withdrawal withdrawals:302:main,
2025-06-01 00:00:32 UTC,1,ETH,,,,,,,,withdrawal withdrawals:303:main,0xdef
2025-06-01 00:00:40 UTC,,,250,USDT,,,,,,deposit deposits:401:main,0xdep
2025-06-01 00:00:42 UTC,1.25,USDT,,,,,,,margin fee,funding_fee futures_tax_records:501:main,
2025-06-01 00:00:44 UTC,,,3.5,USDT,,,,,,Interest spot_tax_records:601:main,
2025-06-01 00:00:45 UTC,,,100,USDT,,,,,,transfer-in p2p_tax_records:701:main,
2025-06-01 00:00:46 UTC,0.5,USDT,,,,,,,margin fee,futures_fee futures_tax_records:503:fee,
2025-06-01 00:00:46 UTC,,,20,USDT,,,,,,futures_trans_from_exchange futures_tax_records:503:main,
`;

const row = (...cells: string[]) => cells.map((c) => `"${c}"`).join(',');
const ct = (type: string, buy: [string, string] | null, sell: [string, string] | null, group: string, comment: string, second: number, tx: string, fee: [string, string] = ['', '']) =>
  row(type, buy?.[0] ?? '', buy?.[1] ?? '', sell?.[0] ?? '', sell?.[1] ?? '', fee[0], fee[1], 'default', group, comment, `2025-06-01 00:00:${String(second).padStart(2, '0')}`, tx);
const m = (id: string, leg = 'main') => `margin_records:${id}:${leg}`;
const f = (id: string, leg: string) => `futures_fills:${id}:${leg}`;

const COINTRACKING = [
  row('Type', 'Buy Amount', 'Buy Currency', 'Sell Amount', 'Sell Currency', 'Fee', 'Fee Currency', 'Exchange', 'Trade-Group', 'Comment', 'Date', 'Tx-ID'),
  ct('Receive Loan', ['0.5', 'BTC'], null, 'margin_records', `loan_borrow ${m('103')}`, 2, m('103')),
  ct('Repay Loan', null, ['0.25', 'BTC'], 'margin_records', `loan_repay ${m('104')}`, 3, m('104')),
  ct('Borrowing Fee', null, ['0.00001234', 'BTC'], 'margin_records', `interest ${m('105')}`, 4, m('105')),
  ct('Margin Fee', null, ['3.2', 'USDT'], 'margin_records', `liquidation_fee ${m('106')}`, 5, m('106')),
  ct('Other Income', ['1.1', 'USDT'], null, 'margin_records', `compensation ${m('107')}`, 6, m('107')),
  ct('Margin Fee', null, ['0.000001', 'BTC'], 'margin_records', `fee ${m('108', 'fee')}`, 7, m('108', 'fee')),
  ct('Other Income', ['0.01', 'BTC'], null, 'margin_records', `trade_in ${m('108')}`, 7, m('108')),
  ct('Margin Fee', null, ['0.65', 'USDT'], 'margin_records', `fee ${m('109', 'fee')}`, 8, m('109', 'fee')),
  ct('Other Fee', null, ['650.25', 'USDT'], 'margin_records', `trade_out ${m('109')}`, 8, m('109')),
  ct('Margin Fee', null, ['0.65', 'USDT'], 'margin_records', `trade_fee ${m('110')}`, 9, m('110')),
  ct('Other Fee', null, ['2', 'USDT'], 'margin_records', `liquidation_loss ${m('111')}`, 10, m('111')),
  ct('Other Income', ['0.3', 'ETH'], null, 'margin_records', `conversion_in ${m('112')}`, 11, m('112')),
  ct('Other Fee', null, ['900', 'USDT'], 'margin_records', `conversion_out ${m('113')}`, 12, m('113')),
  ct('Other Fee', null, ['7.7', 'USDT'], 'margin_records', `unknown ${m('114')}`, 13, m('114')),
  ct('Margin Fee', null, ['0.6', 'USDT'], 'futures_fills', `trading_fee ${f('201', 'fee1')}`, 20, f('201', 'fee1')),
  ct('Other Income', ['0.1', 'USDT'], null, 'futures_fills', `trading_fee ${f('202', 'fee1')}`, 21, f('202', 'fee1')),
  ct('Derivatives / Futures Profit', ['12.5', 'USDT'], null, 'futures_fills', `realized_pnl ${f('202', 'pnl')}`, 21, f('202', 'pnl')),
  ct('Margin Fee', null, ['0.0001', 'ETH'], 'futures_fills', `trading_fee ${f('203', 'fee1')}`, 22, f('203', 'fee1')),
  ct('Margin Fee', null, ['0.05', 'BGB'], 'futures_fills', `trading_fee ${f('203', 'fee2')}`, 22, f('203', 'fee2')),
  ct('Derivatives / Futures Loss', null, ['0.002', 'ETH'], 'futures_fills', `realized_pnl ${f('203', 'pnl')}`, 22, f('203', 'pnl')),
  ct('Derivatives / Futures Profit', ['0.0003', 'BTC'], null, 'futures_fills', `realized_pnl ${f('204', 'pnl')}`, 23, f('204', 'pnl')),
  ct('Derivatives / Futures Loss', null, ['5', 'USDC'], 'futures_fills', `realized_pnl ${f('205', 'pnl')}`, 24, f('205', 'pnl')),
  ct('Margin Fee', null, ['1.5', 'USDT'], 'futures_fills', `trading_fee ${f('207', 'fee1')}`, 26, f('207', 'fee1')),
  ct('Margin Fee', null, ['0.5', 'USDT'], 'futures_fills', `trading_fee ${f('207', 'fee2')}`, 26, f('207', 'fee2')),
  ct('Derivatives / Futures Loss', null, ['100', 'USDT'], 'futures_fills', `realized_pnl ${f('207', 'pnl')}`, 26, f('207', 'pnl')),
  ct('Withdrawal', null, ['100', 'USDT'], 'withdrawals', 'withdrawal withdrawals:301:main', 30, '0xabc', ['1', 'USDT']),
  ct('Withdrawal', null, ['0.1', 'BTC'], 'withdrawals', 'withdrawal withdrawals:302:main', 31, 'withdrawals:302:main'),
  ct('Withdrawal', null, ['1', 'ETH'], 'withdrawals', 'withdrawal withdrawals:303:main', 32, '0xdef'),
  ct('Deposit', ['250', 'USDT'], null, 'deposits', 'deposit deposits:401:main', 40, '0xdep'),
  ct('Margin Fee', null, ['1.25', 'USDT'], 'futures_tax_records', 'funding_fee futures_tax_records:501:main', 42, 'futures_tax_records:501:main'),
  ct('Other Income', ['3.5', 'USDT'], null, 'spot_tax_records', 'Interest spot_tax_records:601:main', 44, 'spot_tax_records:601:main'),
  ct('Other Income', ['100', 'USDT'], null, 'p2p_tax_records', 'transfer-in p2p_tax_records:701:main', 45, 'p2p_tax_records:701:main'),
  ct('Margin Fee', null, ['0.5', 'USDT'], 'futures_tax_records', 'futures_fee futures_tax_records:503:fee', 46, 'futures_tax_records:503:fee'),
  ct('Other Income', ['20', 'USDT'], null, 'futures_tax_records', 'futures_trans_from_exchange futures_tax_records:503:main', 46, 'futures_tax_records:503:main'),
  '',
].join('\n');

describe('tax-software files from hand-written records of every kind', () => {
  it('koinly.csv and cointracking.csv are exactly the rows expected; transfers between own wallets left out', async () => {
    const out = join(dir, 'out');
    const files = await exportFiles(warehouse, { out, from: T, to: T + 3_600_000, formats: ['koinly', 'cointracking'] });
    expect(files.map((x) => [x.path.slice(out.length + 1), x.rows])).toEqual([
      ['koinly.csv', 34],
      ['cointracking.csv', 34],
    ]);
    expect(await readFile(join(out, 'koinly.csv'), 'utf8')).toBe(KOINLY);
    expect(await readFile(join(out, 'cointracking.csv'), 'utf8')).toBe(COINTRACKING);
  });
});
