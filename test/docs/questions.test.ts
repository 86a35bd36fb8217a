import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/cli/query-output.js';
import { computeGains } from '../../src/gains/gains.js';
import { runTransforms } from '../../src/transform/runner.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN } from '../transform/fixtures.js';

// docs/questions.md: every query on the page, run on the warehouse of the hand-written records (GOLDEN), gives
// the rows below (worked out from the records in test/transform/fixtures.ts and the type catalog).

const PAGE = new URL('../../docs/questions.md', import.meta.url);

const EXPECTED: Record<string, string[]> = {
  'What did I pay in fees, per asset and kind?': [
    'tax_class,asset,entries,total',
    'trading_fee,BGB,1,-0.05',
    'trading_fee,BTC,3,-0.000013',
    'trading_fee,ETH,1,-0.0001',
    'trading_fee,SOL,1,-0.002',
    'trading_fee,USDT,4,-2.5',
    'withdrawal_fee,USDT,2,-1.8',
  ],
  'How much funding did I pay and receive?': ['asset,paid,received,net', 'USDT,-1.25,0.75,-0.5'],
  'What did I earn as income and interest?': [
    'tax_class,category,asset,entries,total',
    'income,airdrop,ARB,1,12',
    'income,margin_bonus,USDT,1,5',
    'interest_earned,interest_earned,USDT,1,3.5',
  ],
  'What were the largest movements, leaving out transfers between my own accounts?': [
    'ts,source,source_id,category,asset,amount,value_usdt',
    `2025-06-01 00:00:12+00,margin_records,114,unreviewed,USDT,-12674,-12674`,
    `2025-06-01 00:00:11+00,margin_records,113,conversion_out,USDT,-900,-900`,
    `2025-06-01 00:00:07+00,margin_records,109,trade_out,USDT,-650.25,-650.25`,
    `2025-06-01 00:00:55+00,spot_tax_records,607,spot_trade,USDT,-300,-300`,
    `2025-06-01 00:00:40+00,deposits,401,deposit,USDT,250,250`,
  ],
  // Transfers between the account's own wallets: 101, 503, 603 and 701 in, 102 out.
  'What did the tax files leave out, and why?': [
    'reason,category,entries',
    'internal_transfer,transfer_in,4',
    'internal_transfer,transfer_out,1',
  ],
  // margin_coupon_profit is known (margin_bonus); these two are not.
  'Which types does the catalog not know yet?': [
    'source,field,type,asset,records,total',
    'margin_records,marginTaxType,special_refund,USDT,1,-7.7',
    'margin_records,marginTaxType,special_transfer_out,USDT,1,-12674',
  ],
  // Gains by fifo in USDT (no fiat, no candles: only what was traded against USDT has a value). The withdrawals of
  // 0.1 BTC (302) and 1 ETH (303) leave the lots: ETH's at the 900 USDT its lots cost, less 6.3 disposed of before.
  'What did my disposals cost, and what did withdrawals take out of the lots?': [
    'asset,is_disposal,slices,quantity,cost,gain',
    'BGB,true,1,0.05,0,0',
    'BTC,true,5,0.25002534,0,0',
    'BTC,false,1,0.1,0,',
    'ETH,true,2,0.0021,6.3,-6.3',
    'ETH,false,2,1,893.7,',
    'SOL,true,1,0.002,0.3,-0.3',
    'USDC,true,1,5,0,0',
  ],
};

/** Each question of the page (a `###` heading) with the SQL of the block after it. */
function questions(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of markdown.matchAll(/^### (.+)\n\n```sql\n([\s\S]*?)\n```/gm))
    found.set(m[1] as string, m[2] as string);
  return found;
}

let db: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempWarehouse();
  await loadRaw(temp.warehouse, GOLDEN);
  await runTransforms(temp.warehouse);
  // The tables of realized gains, as every export makes them.
  await temp.warehouse.exclusive((c) =>
    computeGains(c, { costBasis: 'fifo', pool: 'account', taxYearStart: '01-01', timeZone: 'UTC' }),
  );
  await temp.warehouse.close();
  db = join(temp.dir, 'w.duckdb');
  dispose = () => import('node:fs/promises').then((fs) => fs.rm(temp.dir, { recursive: true, force: true }));
});
afterAll(() => dispose());

describe("docs/questions.md: the accountant's questions", () => {
  it('has a query for each question the test knows, and no other', async () => {
    expect([...questions(await readFile(PAGE, 'utf8')).keys()]).toEqual(Object.keys(EXPECTED));
  });

  it.each(Object.keys(EXPECTED))('%s', async (question) => {
    const sql = questions(await readFile(PAGE, 'utf8')).get(question) as string;
    const lines: string[] = [];
    await runQuery(db, sql, 'csv', (chunk) => lines.push(...chunk.split('\n')));
    expect(lines).toEqual(EXPECTED[question]);
  });
});
