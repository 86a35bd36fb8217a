import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { readModel } from '../../src/warehouse/sql-graph.js';
import { rows } from '../helpers/raw.js';
import { runEngine, trade } from '../gains/engine-helpers.js';
import { T, transformedGolden } from './fixtures.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dir, dispose } = await transformedGolden());
});
afterEach(() => dispose());

// Koinly's universal format (help article 9489976): a trade is one row with Sent, Received and a fee paid in
// addition; a withdrawal's Sent includes its fee, and no fee column on it; realized P&L is tagged "realized gain".
const KOINLY = `Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Tag,Description,TxHash
2025-06-01 00:00:02 UTC,,,0.5,BTC,,,,,margin loan,loan_borrow margin_records:103:main [default],
2025-06-01 00:00:03 UTC,0.25,BTC,,,,,,,margin repayment,loan_repay margin_records:104:main [default],
2025-06-01 00:00:04 UTC,0.00001234,BTC,,,,,,,loan fee,interest margin_records:105:main [default],
2025-06-01 00:00:05 UTC,3.2,USDT,,,,,,,margin fee,liquidation_fee margin_records:106:main [default],
2025-06-01 00:00:06 UTC,,,1.1,USDT,,,,,realized gain,compensation margin_records:107:main [default],
2025-06-01 00:00:07 UTC,650.25,USDT,0.01,BTC,0.000003,BTC,,,,trade margin_records:isolated:BTCUSDT:1748736007000: margin_records:108:fee margin_records:108:main margin_records:109:main margin_records:110:main [default],
2025-06-01 00:00:10 UTC,2,USDT,,,,,,,realized gain,liquidation_loss margin_records:111:main [default],
2025-06-01 00:00:11 UTC,900,USDT,0.3,ETH,,,,,,trade margin_records:crossed::1748736011000: margin_records:112:main margin_records:113:main [default],
2025-06-01 00:00:12 UTC,12674,USDT,,,,,,,,REVIEW (a type not in the catalog: marginTaxType special_transfer_out): unreviewed margin_records:114:main [default],
2025-06-01 00:00:13 UTC,7.7,USDT,,,,,,,,REVIEW (a type not in the catalog: marginTaxType special_refund): unreviewed margin_records:115:main [default],
2025-06-01 00:00:14 UTC,,,5,USDT,,,,,reward,margin_bonus margin_records:116:main [default],
2025-06-01 00:00:20 UTC,0.6,USDT,,,,,,,margin fee,trading_fee futures_fills:201:fee1 [default],
2025-06-01 00:00:21 UTC,,,0.1,USDT,,,,,fee refund,trading_fee futures_fills:202:fee1 [default],
2025-06-01 00:00:21 UTC,,,12.5,USDT,,,,,realized gain,realized_pnl futures_fills:202:pnl [default],
2025-06-01 00:00:22 UTC,0.0001,ETH,,,,,,,margin fee,trading_fee futures_fills:203:fee1 [default],
2025-06-01 00:00:22 UTC,0.05,BGB,,,,,,,margin fee,trading_fee futures_fills:203:fee2 [default],
2025-06-01 00:00:22 UTC,0.002,ETH,,,,,,,realized gain,realized_pnl futures_fills:203:pnl [default],
2025-06-01 00:00:23 UTC,,,0.0003,BTC,,,,,realized gain,realized_pnl futures_fills:204:pnl [default],
2025-06-01 00:00:24 UTC,5,USDC,,,,,,,realized gain,realized_pnl futures_fills:205:pnl [default],
2025-06-01 00:00:26 UTC,1.5,USDT,,,,,,,margin fee,trading_fee futures_fills:207:fee1 [default],
2025-06-01 00:00:26 UTC,0.5,USDT,,,,,,,margin fee,trading_fee futures_fills:207:fee2 [default],
2025-06-01 00:00:26 UTC,100,USDT,,,,,,,realized gain,realized_pnl futures_fills:207:pnl [default],
2025-06-01 00:00:27 UTC,0.00001,BTC,,,,,,,margin fee,trading_fee futures_fills:208:fee1 [default],
2025-06-01 00:00:27 UTC,,,0.004,BTC,,,,,realized gain,realized_pnl futures_fills:208:pnl [default],
2025-06-01 00:00:30 UTC,101,USDT,,,,,,,,withdrawal withdrawals:301:main withdrawals:301:fee [default],0xabc
2025-06-01 00:00:31 UTC,0.1,BTC,,,,,,,,withdrawal withdrawals:302:main [default],
2025-06-01 00:00:32 UTC,1,ETH,,,,,,,,withdrawal withdrawals:303:main [default],0xdef
2025-06-01 00:00:40 UTC,,,250,USDT,,,,,,deposit deposits:401:main [default],0xdep
2025-06-01 00:00:42 UTC,1.25,USDT,,,,,,,realized gain,funding_fee futures_tax_records:501:main [default],
2025-06-01 00:00:45 UTC,,,0.75,USDT,,,,,realized gain,funding_fee futures_tax_records:504:main [default],
2025-06-01 00:00:50 UTC,,,3.5,USDT,,,,,lending interest,interest_earned spot_tax_records:601:main [default],
2025-06-01 00:00:53 UTC,,,500,EUR,,,,,,fiat_deposit spot_tax_records:604:main [default],
2025-06-01 00:00:54 UTC,0.8,USDT,,,,,,,cost,fast_withdrawal_fee spot_tax_records:605:main [default],
2025-06-01 00:00:55 UTC,300,USDT,2,SOL,0.002,SOL,,,,trade spot_tax_records::o77:1748736055000: spot_tax_records:606:main spot_tax_records:607:main spot_tax_records:608:main [default],
2025-06-01 00:00:56 UTC,,,12,ARB,,,,,airdrop,airdrop spot_tax_records:609:main [default],
2025-06-01 00:01:01 UTC,,,10,USDT,,,,,,p2p_buy p2p_tax_records:702:main [default],
2025-06-01 00:01:02 UTC,4,USDT,,,,,,,,p2p_sell p2p_tax_records:703:main [default],
`;

// CoinTracking ("Entering fees"): Buy and Sell include the fees, the Fee column is informational.
const COINTRACKING = `"Type","Buy Amount","Buy Currency","Sell Amount","Sell Currency","Fee","Fee Currency","Exchange","Trade-Group","Comment","Date","Tx-ID","Buy Value in your Account Currency","Sell Value in your Account Currency"
"Receive Loan","0.5","BTC","","","","","default","margin_records","loan_borrow margin_records:103:main","2025-06-01 00:00:02","default:margin_records:103:main","",""
"Repay Loan","","","0.25","BTC","","","default","margin_records","loan_repay margin_records:104:main","2025-06-01 00:00:03","default:margin_records:104:main","",""
"Borrowing Fee","","","0.00001234","BTC","","","default","margin_records","interest margin_records:105:main","2025-06-01 00:00:04","default:margin_records:105:main","",""
"Other Fee","","","3.2","USDT","","","default","margin_records","liquidation_fee margin_records:106:main","2025-06-01 00:00:05","default:margin_records:106:main","",""
"Margin Profit","1.1","USDT","","","","","default","margin_records","compensation margin_records:107:main","2025-06-01 00:00:06","default:margin_records:107:main","",""
"Trade","0.009997","BTC","650.25","USDT","0.000003","BTC","default","margin_records","trade margin_records:isolated:BTCUSDT:1748736007000: margin_records:108:fee margin_records:108:main margin_records:109:main margin_records:110:main","2025-06-01 00:00:07","default:margin_records:108:fee","",""
"Margin Loss","","","2","USDT","","","default","margin_records","liquidation_loss margin_records:111:main","2025-06-01 00:00:10","default:margin_records:111:main","",""
"Trade","0.3","ETH","900","USDT","","","default","margin_records","trade margin_records:crossed::1748736011000: margin_records:112:main margin_records:113:main","2025-06-01 00:00:11","default:margin_records:112:main","",""
"Withdrawal","","","12674","USDT","","","default","margin_records","REVIEW (a type not in the catalog: marginTaxType special_transfer_out): unreviewed margin_records:114:main","2025-06-01 00:00:12","default:margin_records:114:main","",""
"Withdrawal","","","7.7","USDT","","","default","margin_records","REVIEW (a type not in the catalog: marginTaxType special_refund): unreviewed margin_records:115:main","2025-06-01 00:00:13","default:margin_records:115:main","",""
"Reward / Bonus","5","USDT","","","","","default","margin_records","margin_bonus margin_records:116:main","2025-06-01 00:00:14","default:margin_records:116:main","",""
"Other Fee","","","0.6","USDT","","","default","futures_fills","trading_fee futures_fills:201:fee1","2025-06-01 00:00:20","default:futures_fills:201:fee1","",""
"Income (non taxable)","0.1","USDT","","","","","default","futures_fills","trading_fee futures_fills:202:fee1","2025-06-01 00:00:21","default:futures_fills:202:fee1","",""
"Derivatives / Futures Profit","12.5","USDT","","","","","default","futures_fills","realized_pnl futures_fills:202:pnl","2025-06-01 00:00:21","default:futures_fills:202:pnl","",""
"Other Fee","","","0.0001","ETH","","","default","futures_fills","trading_fee futures_fills:203:fee1","2025-06-01 00:00:22","default:futures_fills:203:fee1","",""
"Other Fee","","","0.05","BGB","","","default","futures_fills","trading_fee futures_fills:203:fee2","2025-06-01 00:00:22","default:futures_fills:203:fee2","",""
"Derivatives / Futures Loss","","","0.002","ETH","","","default","futures_fills","realized_pnl futures_fills:203:pnl","2025-06-01 00:00:22","default:futures_fills:203:pnl","",""
"Derivatives / Futures Profit","0.0003","BTC","","","","","default","futures_fills","realized_pnl futures_fills:204:pnl","2025-06-01 00:00:23","default:futures_fills:204:pnl","",""
"Derivatives / Futures Loss","","","5","USDC","","","default","futures_fills","realized_pnl futures_fills:205:pnl","2025-06-01 00:00:24","default:futures_fills:205:pnl","",""
"Other Fee","","","1.5","USDT","","","default","futures_fills","trading_fee futures_fills:207:fee1","2025-06-01 00:00:26","default:futures_fills:207:fee1","",""
"Other Fee","","","0.5","USDT","","","default","futures_fills","trading_fee futures_fills:207:fee2","2025-06-01 00:00:26","default:futures_fills:207:fee2","",""
"Derivatives / Futures Loss","","","100","USDT","","","default","futures_fills","realized_pnl futures_fills:207:pnl","2025-06-01 00:00:26","default:futures_fills:207:pnl","",""
"Other Fee","","","0.00001","BTC","","","default","futures_fills","trading_fee futures_fills:208:fee1","2025-06-01 00:00:27","default:futures_fills:208:fee1","",""
"Derivatives / Futures Profit","0.004","BTC","","","","","default","futures_fills","realized_pnl futures_fills:208:pnl","2025-06-01 00:00:27","default:futures_fills:208:pnl","",""
"Withdrawal","","","101","USDT","1","USDT","default","withdrawals","withdrawal withdrawals:301:main withdrawals:301:fee tx 0xabc","2025-06-01 00:00:30","default:withdrawals:301:main","",""
"Withdrawal","","","0.1","BTC","","","default","withdrawals","withdrawal withdrawals:302:main","2025-06-01 00:00:31","default:withdrawals:302:main","",""
"Withdrawal","","","1","ETH","","","default","withdrawals","withdrawal withdrawals:303:main tx 0xdef","2025-06-01 00:00:32","default:withdrawals:303:main","",""
"Deposit","250","USDT","","","","","default","deposits","deposit deposits:401:main tx 0xdep","2025-06-01 00:00:40","default:deposits:401:main","",""
"Derivatives / Futures Loss","","","1.25","USDT","","","default","futures_tax_records","funding_fee futures_tax_records:501:main","2025-06-01 00:00:42","default:futures_tax_records:501:main","",""
"Derivatives / Futures Profit","0.75","USDT","","","","","default","futures_tax_records","funding_fee futures_tax_records:504:main","2025-06-01 00:00:45","default:futures_tax_records:504:main","",""
"Interest Income","3.5","USDT","","","","","default","spot_tax_records","interest_earned spot_tax_records:601:main","2025-06-01 00:00:50","default:spot_tax_records:601:main","",""
"Deposit","500","EUR","","","","","default","spot_tax_records","fiat_deposit spot_tax_records:604:main","2025-06-01 00:00:53","default:spot_tax_records:604:main","",""
"Other Fee","","","0.8","USDT","","","default","spot_tax_records","fast_withdrawal_fee spot_tax_records:605:main","2025-06-01 00:00:54","default:spot_tax_records:605:main","",""
"Trade","1.998","SOL","300","USDT","0.002","SOL","default","spot_tax_records","trade spot_tax_records::o77:1748736055000: spot_tax_records:606:main spot_tax_records:607:main spot_tax_records:608:main","2025-06-01 00:00:55","default:spot_tax_records:606:main","",""
"Airdrop","12","ARB","","","","","default","spot_tax_records","airdrop spot_tax_records:609:main","2025-06-01 00:00:56","default:spot_tax_records:609:main","",""
"Deposit","10","USDT","","","","","default","p2p_tax_records","p2p_buy p2p_tax_records:702:main","2025-06-01 00:01:01","default:p2p_tax_records:702:main","",""
"Withdrawal","","","4","USDT","","","default","p2p_tax_records","p2p_sell p2p_tax_records:703:main","2025-06-01 00:01:02","default:p2p_tax_records:703:main","",""
`;

const INTERNAL =
  "internal_transfer: A move between the account's own wallets (spot, margin, futures, P2P, earn, strategies, locks): nothing enters or leaves the account, so the tax files leave it out";

/** A node of DuckDB's plan as `EXPLAIN (FORMAT json)` writes it. */
interface PlanNode {
  name?: string;
  extra_info?: { Table?: string };
  children?: PlanNode[];
}

describe('tax-software files from hand-written records of every kind', () => {
  it('koinly.csv and cointracking.csv are exactly the rows expected: trades paired, fees folded, transfers between own wallets left out', async () => {
    const out = join(dir, 'out');
    const files = await exportFiles(warehouse, {
      out,
      from: T,
      to: T + 3_600_000,
      formats: ['koinly', 'cointracking'],
    });
    expect(files.map((x) => [x.path.slice(out.length + 1), x.rows])).toEqual([
      ['koinly.csv', 37],
      ['cointracking.csv', 37],
    ]);
    expect(await readFile(join(out, 'koinly.csv'), 'utf8')).toBe(KOINLY);
    expect(await readFile(join(out, 'cointracking.csv'), 'utf8')).toBe(COINTRACKING);
  });

  it('lists every ledger row left out with its reason, and accounts for every other row in exactly one tax row', async () => {
    expect(await rows(warehouse, 'SELECT entry_id, reason FROM tax_export_excluded ORDER BY entry_id')).toEqual(
      [
        'futures_tax_records:503:main',
        'margin_records:101:main',
        'margin_records:102:main',
        'p2p_tax_records:701:main',
        'spot_tax_records:603:main',
      ].map((entry_id) => ({ entry_id, reason: INTERNAL })),
    );
    expect(
      await rows(
        warehouse,
        `SELECT count(*) AS ledger,
           (SELECT count(*) FROM tax_export_entries) AS in_files,
           (SELECT count(DISTINCT (account, entry_id)) FROM tax_export_entries) AS distinct_in_files,
           (SELECT count(*) FROM tax_export_excluded) AS excluded,
           (SELECT count(*) FROM ledger ANTI JOIN tax_export_entries USING (account, entry_id) ANTI JOIN tax_export_excluded USING (account, entry_id)) AS unaccounted
         FROM ledger`,
      ),
    ).toEqual([{ ledger: '49', in_files: '44', distinct_in_files: '44', excluded: '5', unaccounted: '0' }]);
  });

  it('reads the legs and the valued rows with a scan each time, not a CTE copied whole, once opened again', async () => {
    // DuckDB stores a macro without a CTE's NOT MATERIALIZED: what one session made is not what the next one reads.
    await warehouse.close();
    const reopened = await openWarehouse(join(dir, 'w.duckdb'));
    const scans = async (sql: string, table: string) => {
      const reader = await reopened.connection.runAndReadAll(`EXPLAIN (FORMAT json) ${sql}`);
      let found = 0;
      const walk = (node: PlanNode): void => {
        if (node.name === 'SEQ_SCAN' && node.extra_info?.Table?.endsWith(`.${table}`)) found++;
        for (const child of node.children ?? []) walk(child);
      };
      for (const root of JSON.parse(String(reader.getRows()[0]?.[1])) as PlanNode[]) walk(root);
      return found;
    };
    const range = "CAST('2025-01-01' AS TIMESTAMPTZ), CAST('2026-01-01' AS TIMESTAMPTZ)";
    try {
      await reopened.connection.run('CREATE TEMP TABLE lp_valued AS SELECT * FROM lp_plausibility_rows');
      // The legs: the trades' sides, their rows, the withdrawals and their fees, the singles. The valued rows: eight.
      expect(await scans(`SELECT * FROM lp_tax_export_rows(${range})`, 'ledger')).toBe(5);
      expect(await scans(`SELECT * FROM lp_plausibility_of('lp_valued', ${range})`, 'lp_valued')).toBe(8);
    } finally {
      await reopened.close();
    }
  });

  it('checks at every transform that a trade lies at one instant, which a range of the tax files relies on', async () => {
    const check = () => warehouse.exclusive((c) => readModel(c, 'checks/15_trades_at_one_instant.sql'));
    expect(await check()).toEqual([]);
    // One leg of the golden records' margin trade a second later: the trade would be cut by a range between them.
    await warehouse.connection.run(
      "UPDATE ledger SET ts = ts + INTERVAL 1 SECOND WHERE account = 'default' AND entry_id = 'margin_records:109:main'",
    );
    expect(await check()).toEqual([
      {
        check_name: 'a trade lies at one instant',
        problem:
          'trade margin_records:isolated:BTCUSDT:1748736007000 of account default has entries from 2025-06-01 00:00:07+00 to 2025-06-01 00:00:08+00',
      },
    ]);
  });

  it("makes a range's rows from its own ledger rows: the view's rows of that range, wherever the range is cut", async () => {
    const order = 'ORDER BY account, row_id';
    const all = await rows(warehouse, `SELECT * FROM tax_export_rows ${order}`);
    expect(all.length).toBe(37);
    const instant = (ms: number) => `make_timestamptz(${ms * 1000})`;
    // Ranges of 1, 3 and 7 seconds side by side over the records' minute, cutting between and beside trades.
    for (const step of [1_000, 3_000, 7_000]) {
      const pieces = [];
      for (let from = T - step; from < T + 70_000; from += step) {
        const [start, end] = [instant(from), instant(from + step)];
        const piece = await rows(warehouse, `SELECT * FROM lp_tax_export_rows(${start}, ${end}) ${order}`);
        const viewed = await rows(
          warehouse,
          `SELECT * FROM tax_export_rows WHERE ts >= ${start} AND ts < ${end} ${order}`,
        );
        expect(piece, `[${from}, ${from + step})`).toEqual(viewed);
        pieces.push(...piece);
      }
      // The pieces make the whole: every row in one range, none in two.
      const key = (r: Record<string, string | null>) => `${r['account']} ${r['row_id']}`;
      const byKey = (a: Record<string, string | null>, b: Record<string, string | null>) =>
        key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      expect(pieces.sort(byKey)).toEqual([...all].sort(byKey));
    }
  });
});

const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '+00');

describe('disposals.csv', () => {
  it('lists the slices of one instant in the same order whatever order the table holds them in', async () => {
    // Three lots bought in one millisecond, sold together later: three slices alike in time, asset, account and lot
    // date (a margin account books many records in one millisecond).
    const bought = at(T);
    await runEngine(
      warehouse,
      [
        ...trade(bought, 'BTC', '3', '30', 'buy'),
        ...trade(bought, 'BTC', '1', '10', 'buy'),
        ...trade(bought, 'BTC', '2', '20', 'buy'),
        ...trade(at(T + 60_000), 'BTC', '6', '90', 'sell'),
      ],
      {},
    );
    const slices = async (name: string) => {
      await exportFiles(warehouse, { out: join(dir, name), from: T, to: T + 3_600_000, formats: ['csv'] });
      return (await readFile(join(dir, name, 'disposals.csv'), 'utf8'))
        .split('\n')
        .filter((line) => line.startsWith('default,BTC,'));
    };
    const first = await slices('first');
    expect(first.map((line) => line.split(',').slice(2, 3).concat(line.split(',').slice(6, 8)).join(' '))).toEqual([
      '1 15 10',
      '2 30 20',
      '3 45 30',
    ]);
    // The same rows held in the other order: the file is the same.
    await warehouse.connection.run('SET preserve_insertion_order = true');
    await warehouse.connection.run(
      'CREATE OR REPLACE TABLE disposals AS SELECT * FROM disposals ORDER BY quantity DESC',
    );
    expect(await slices('reversed')).toEqual(first);
  });
});
