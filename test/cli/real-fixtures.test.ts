import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { REPLAY_ACCOUNTS } from '../fixtures/replay-accounts.js';
import { runCliHere, type CliResult } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';
import { startReplay, type Replay } from '../helpers/replay-server.js';
import { cointrackingNets, koinlyNets, ledgerNets, netLines } from '../helpers/tax-files.js';

let dir: string;
let replay: Replay;
let run: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-real-'));
  const accounts = Object.entries(REPLAY_ACCOUNTS);
  replay = await startReplay(
    Object.fromEntries(accounts.map(([account, files]) => [`key-${account}`, { account, files }])),
  );
  const env: NodeJS.ProcessEnv = { ...process.env };
  const config = {
    accounts: accounts.map(([account]) => {
      const prefix = `REPLAY_${account.toUpperCase()}`;
      Object.assign(env, {
        [`${prefix}_KEY`]: `key-${account}`,
        [`${prefix}_SECRET`]: 'replay-secret',
        [`${prefix}_PASSPHRASE`]: 'replay-pass',
      });
      // The docs' account is a lead trader: its profit shares are read (docs/unified-accounts.md, "Copy trading").
      const copy = account === 'docs' ? { copyTrading: { leadTrader: true } } : {};
      return {
        name: account,
        baseUrl: replay.baseUrl,
        env: { key: `${prefix}_KEY`, secret: `${prefix}_SECRET`, passphrase: `${prefix}_PASSPHRASE` },
        ...copy,
      };
    }),
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  run = await runCliHere(
    [
      'run',
      'year-end',
      '--from',
      '2021-07-01',
      '--to',
      '2025-12-01',
      '--config',
      join(dir, 'config.json'),
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--format',
      'csv,parquet,koinly,cointracking',
      '--rate-scale',
      '1000',
      '--quiet',
    ],
    { env },
  );
}, 300_000);
afterAll(async () => {
  await replay.close();
  await rm(dir, { recursive: true, force: true });
});

/** account, entry_id, category, asset, amount, trade_group: the ledger the published responses give. */
const LEDGER: readonly (readonly (string | null)[])[] = [
  ['clients', 'deposits:1083832260799930368:main', 'deposit', 'BTC', '0.0003', null],
  ['clients', 'futures_fills:1111468664328269825:fee1', 'trading_fee', 'USDT', '-0.02236284', null],
  ['clients', 'futures_fills:1111468664328269825:pnl', 'realized_pnl', 'USDT', '-0.0007', null],
  ['clients', 'futures_fills:1115965644337205249:fee1', 'trading_fee', 'USDT', '-0.004335', null],
  ['clients', 'futures_fills:1115965644337205249:pnl', 'realized_pnl', 'USDT', '-0.002', null],
  ['clients', 'futures_fills:3687452565:fee1', 'trading_fee', 'USDT', '-0.01807344', null],
  ['clients', 'futures_fills:3687452565:pnl', 'realized_pnl', 'USDT', '0.01232', null],
  ['clients', 'futures_tax_records:1260675616772616210:main', 'funding_fee', 'USDT', '-0.0030672', null],
  ['clients', 'futures_tax_records:1260917227205062710:main', 'funding_fee', 'USDT', '0.0052043524', null],
  ['clients', 'withdrawals:1083832260799930368:fee', 'withdrawal_fee', 'BTC', '-1', null],
  ['clients', 'withdrawals:1083832260799930368:main', 'withdrawal', 'BTC', '-0.0003', null],
  ['docs', 'deposits:1:main', 'deposit', 'USDT', '10', null],
  ['docs', 'futures_fills:1103122437840805890:fee1', 'trading_fee', 'USDT', '-0.02161596', null],
  ['docs', 'futures_fills:1103122437840805890:pnl', 'realized_pnl', 'USDT', '0.0252', null],
  ['docs', 'futures_fills:123:fee1', 'trading_fee', 'BGB', '-0.017118519726', null],
  ['docs', 'futures_fills:123:pnl', 'realized_pnl', 'USDT', '102', null],
  ['docs', 'margin_records:1:main', 'transfer_in', 'USDT', '13333', null],
  ['docs', 'p2p_tax_records:152526631:main', 'transfer_in', 'USDT', '1', null],
  ['docs', 'spot_tax_records:1:main', 'interest_earned', 'AIBB', '6018333.33333333', null],
  ['docs', 'withdrawals:1:fee', 'withdrawal_fee', 'USDT', '-1', null],
  ['docs', 'withdrawals:1:main', 'withdrawal', 'USDT', '-10', null],
  ['earlier', 'deposits:912533114861326336:main', 'deposit', 'USDT', '10', null],
  ['earlier', 'futures_fills:1103122437840805890:fee1', 'trading_fee', 'USDT', '-0.02161596', null],
  ['earlier', 'futures_fills:1103122437840805890:pnl', 'realized_pnl', 'USDT', '0.0252', null],
  ['earlier', 'p2p_tax_records:1752117:main', 'p2p_buy', 'USDT', '10', null],
  ['earlier', 'spot_tax_records:1050266154437103616:main', 'interest_earned', 'AIBB', '6018333.33333333', null],
  ['earlier', 'spot_tax_records:1:main', 'interest_earned', 'AIBB', '6018333.33333333', null],
  ['earlier', 'withdrawals:1:main', 'withdrawal', 'USDT', '-10', null],
  ['earlier', 'withdrawals:912533114861326336:main', 'withdrawal', 'USDT', '-10', null],
  // The unified account's docs' example: a buy of BGB, its fee a record of its own, one trade of one millisecond.
  [
    'unified',
    'uta_tax_records:1375573238088888367:main',
    'trade_in',
    'BGB',
    '0.5696',
    'uta_tax_records:SPOT::1763688137552',
  ],
  [
    'unified',
    'uta_tax_records:1375573238088888368:main',
    'trade_fee',
    'BGB',
    '-0.0004556178732628',
    'uta_tax_records:SPOT::1763688137552',
  ],
  [
    'unified',
    'uta_tax_records:1375573238088888369:main',
    'trade_out',
    'USDT',
    '-1.9998656',
    'uta_tax_records:SPOT::1763688137552',
  ],
  ['variants', 'futures_fills:1103122437840805891:fee1', 'trading_fee', 'BTC', '-0.0000021', null],
  ['variants', 'futures_fills:1103122437840805891:pnl', 'realized_pnl', 'BTC', '0.00012', null],
  ['variants', 'futures_fills:1103122437840805892:fee1', 'trading_fee', 'USDT', '-0.02161596', null],
  ['variants', 'futures_fills:1103122437840805892:fee2', 'trading_fee', 'BGB', '-0.017118519726', null],
  ['variants', 'futures_fills:1103122437840805892:pnl', 'realized_pnl', 'USDT', '3.5', null],
  ['variants', 'margin_records:11:fee', 'fee', 'BTC', '-0.00001', 'margin_records:crossed:BTCUSDT:1686129290000'],
  ['variants', 'margin_records:11:main', 'trade_in', 'BTC', '0.01', 'margin_records:crossed:BTCUSDT:1686129290000'],
  ['variants', 'margin_records:12:main', 'trade_out', 'USDT', '-265.5', 'margin_records:crossed:BTCUSDT:1686129290000'],
  ['variants', 'margin_records:13:main', 'unreviewed', 'USDT', '-100', null],
  ['variants', 'spot_tax_records:22:main', 'strategy_transfer', 'USDT', '4', null],
  ['zh', 'withdrawals:912533114861326336:main', 'withdrawal', 'USDT', '-10', null],
];

describe('the CLI over responses others published (test/fixtures/real/)', () => {
  it('loads every record and books each as its type means: no quarantine, BGB deductions paid whatever their sign, delivery in its base coin', async () => {
    // Two revisions of the docs' spot example sit in one account, each a balance of 468575833.33333306 after an
    // interest of 6018333.33333333: as one chain they cannot both be right, and the run says so (exit 4). The
    // examples are fragments of accounts: what they sell, no record of theirs acquired (docs/history.md).
    expect([run.status, run.stderr]).toEqual([
      4,
      'ledgerpipe: 4 disposal slices of 2021-07-01 to 2025-12-01 have no acquisition (BGB 0.034237039452, BTC 0.99971): the lots held before the history ledgerpipe could read are not known; fill in the cost of each --opening-lots line the summary lists and give the file with --opening-lots (docs/history.md); 1 running-balance break and 1 type booked with the sign opposite to the balance\'s step: records missing or misread; see balance_breaks, sign_mismatches and reconciliation (docs/completeness.md, "Completeness")\n',
    ]);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(await rows(warehouse, 'SELECT count(*) AS n FROM quarantine')).toEqual([{ n: '0' }]);
      // The docs' transfers into margin and P2P have no spot side among the examples: listed, not a finding.
      expect(
        await rows(
          warehouse,
          'SELECT account, stream, account_type, source_id, lp_decimal_text(amount) AS amount FROM unpaired_transfers ORDER BY ALL',
        ),
      ).toEqual([
        { account: 'docs', stream: 'margin_records', account_type: 'margin_crossed', source_id: '1', amount: '13333' },
        { account: 'docs', stream: 'p2p_tax_records', account_type: 'funding', source_id: '152526631', amount: '1' },
      ]);
      // The variant's "Automatic deposit" written 4 while its balance fell by 4: a sign mismatch, not a break.
      expect(
        await rows(
          warehouse,
          'SELECT account, stream, source_id, type, lp_decimal_text(booked) AS booked, lp_decimal_text(step) AS step FROM sign_mismatches',
        ),
      ).toEqual([
        {
          account: 'variants',
          stream: 'spot_tax_records',
          source_id: '22',
          type: 'Automatic deposit',
          booked: '4',
          step: '-4',
        },
      ]);
      // The unified account: found by its settings (accountMode hybrid), read through the v3 endpoints only; the docs'
      // tax example one trade of three legs, its BGB balance chained across the fee record; the financial example
      // booked from the tax records (by category).
      expect(await rows(warehouse, "SELECT account, mode, account_mode FROM account_modes WHERE mode = 'uta'")).toEqual(
        [{ account: 'unified', mode: 'uta', account_mode: 'hybrid' }],
      );
      expect(
        await rows(warehouse, "SELECT DISTINCT stream FROM coverage WHERE account = 'unified' ORDER BY 1"),
      ).toEqual([{ stream: 'uta_financial_records' }, { stream: 'uta_tax_records' }]);
      expect(
        await rows(
          warehouse,
          "SELECT count(*) FILTER (WHERE checked) AS checked FROM lp_balance_steps() WHERE account = 'unified'",
        ),
      ).toEqual([{ checked: '1' }]);
      // The lead trader's share (the docs' example) is read; the futures records book such shares (the catalog).
      expect(
        await rows(
          warehouse,
          'SELECT account, profit_id, coin, lp_decimal_text(profit) AS profit FROM lead_trader_profits',
        ),
      ).toEqual([{ account: 'docs', profit_id: '1', coin: 'USDT', profit: '1' }]);
      // The docs' open loan, as of the run; the unified account's loans endpoint (no published example) is not served.
      expect(
        await rows(
          warehouse,
          'SELECT account, order_id, coin, lp_decimal_text(amount) AS amount, collateral_coin, lp_decimal_text(collateral_amount) AS pledged, unavailable IS NOT NULL AS unavailable FROM loans ORDER BY account, order_id',
        ),
      ).toEqual([
        {
          account: 'docs',
          order_id: '1',
          coin: 'ETH',
          amount: '1',
          collateral_coin: 'USDT',
          pledged: '2619.69231032',
          unavailable: 'false',
        },
        {
          account: 'unified',
          order_id: null,
          coin: null,
          amount: null,
          collateral_coin: null,
          pledged: null,
          unavailable: 'true',
        },
      ]);
      expect(
        await rows(
          warehouse,
          'SELECT account, stream, asset, source_id, lp_decimal_text(expected) AS expected, lp_decimal_text(difference) AS difference FROM balance_breaks',
        ),
      ).toEqual([
        {
          account: 'earlier',
          stream: 'spot_tax_records',
          asset: 'AIBB',
          source_id: '1050266154437103616',
          expected: '474594166.66666639',
          difference: '-6018333.33333333',
        },
      ]);
      const ledger = await rows(
        warehouse,
        'SELECT account, entry_id, category, asset, lp_decimal_text(amount) AS amount, trade_group FROM ledger ORDER BY account, entry_id',
      );
      expect(ledger.map((r) => Object.values(r))).toEqual(LEDGER);
    } finally {
      await warehouse.close();
    }
    expect(run.stdout).toContain(
      'types not in the type catalog, booked as unreviewed (add each to your catalog file, --catalog FILE: docs/ledger.md, "Adding a type"):\n  variants margin_records marginTaxType "special_transfer_out": 1 record, USDT -100\n',
    );
  });

  it("writes tax files whose import gives each account the ledger's net change less internal transfers, exactly", async () => {
    const from = Date.UTC(2021, 6, 1);
    const to = Date.UTC(2025, 11, 1);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    let ledger: string[];
    try {
      ledger = netLines(await ledgerNets(warehouse, from, to));
      // Every ledger row is in a tax file, or listed with its reason: here, the transfers between own wallets.
      expect(
        await rows(
          warehouse,
          'SELECT count(*) AS n FROM ledger ANTI JOIN tax_export_entries USING (account, entry_id) ANTI JOIN tax_export_excluded USING (account, entry_id)',
        ),
      ).toEqual([{ n: '0' }]);
      expect(
        await rows(
          warehouse,
          "SELECT account, entry_id, split_part(reason, ':', 1) AS reason FROM tax_export_excluded ORDER BY account, entry_id",
        ),
      ).toEqual([
        { account: 'docs', entry_id: 'margin_records:1:main', reason: 'internal_transfer' },
        { account: 'docs', entry_id: 'p2p_tax_records:152526631:main', reason: 'internal_transfer' },
        { account: 'variants', entry_id: 'spot_tax_records:22:main', reason: 'internal_transfer' },
      ]);
    } finally {
      await warehouse.close();
    }
    expect(ledger).toEqual([
      'clients BTC -1000000000000000000',
      'clients USDT -33014127600000000',
      'docs AIBB 6018333333333330000000000',
      'docs BGB -17118519726000000',
      'docs USDT 101003584040000000000',
      'earlier AIBB 12036666666666660000000000',
      'earlier USDT 3584040000000000',
      'unified BGB 569144382126737200',
      'unified USDT -1999865600000000000',
      'variants BGB -17118519726000000',
      'variants BTC 10107900000000000',
      'variants USDT -362021615960000000000',
      'zh USDT -10000000000000000000',
    ]);
    expect(netLines(koinlyNets(await readFile(join(dir, 'out', 'koinly.csv'), 'utf8')))).toEqual(ledger);
    expect(netLines(cointrackingNets(await readFile(join(dir, 'out', 'cointracking.csv'), 'utf8')))).toEqual(ledger);
  });

  it('reads each balance endpoint\'s published answer into the quantity its account type\'s rule gives (docs/completeness.md, "Balances")', async () => {
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      const held = await rows(
        warehouse,
        `SELECT account, account_type, asset, symbol, bot_account_type, lp_decimal_text(quantity) AS quantity, unavailable
         FROM asset_balances ORDER BY account, account_type, asset`,
      );
      expect(held.map((r) => Object.values(r))).toEqual([
        // ccxt's captures: futures accountEquity 48.07069777 less unrealizedPL 0.0792 (a cross position) is its
        // available.
        ['clients', 'margin_crossed', 'USDT', null, null, '0.01', null],
        ['clients', 'margin_isolated', 'USDT', 'BTCUSDT', null, '0.000001', null],
        ['clients', 'spot', 'USDT', null, null, '0', null],
        ['clients', 'usdt_futures', 'USDT', null, null, '47.99149777', null],
        // The docs' examples: a futures bot's equity; margin's totalAmount (the example's net is no sum of its parts);
        // funding's "" frozen read as none; futures with unrealizedPL "" give no quantity.
        ['docs', 'bots', 'USDT', null, 'futures', '140.94936285', null],
        ['docs', 'earn', 'BTC', null, null, '0.1', null],
        ['docs', 'earn', 'USDT', null, null, '400', null],
        ['docs', 'funding', 'USDT', null, null, '326', null],
        ['docs', 'margin_crossed', 'USDT', null, null, '12', null],
        ['docs', 'margin_isolated', 'BTC', 'BTCUSDT', null, '19876.1798394', null],
        ['docs', 'spot', 'USDT', null, null, '0', null],
        ['docs', 'usdt_futures', 'USDT', null, null, null, null],
        ['idle', 'usdt_futures', 'USDT', null, null, '19.88811074', null],
        // The unified account's docs' examples: the funding account's available + frozen, the unified account's
        // balance.
        ['unified', 'funding', 'BGB', null, null, '0.01', null],
        ['unified', 'funding', 'USDT', null, null, '0.04', null],
        ['unified', 'unified', 'BGB', null, null, '1.15582129', null],
        ['unified', 'unified', 'USDT', null, null, '6.19300826', null],
      ]);
      // Every field as served is kept, the misspelled one of the docs' example too.
      expect(
        await rows(
          warehouse,
          "SELECT json_extract_string(fields, '$.unionTotalMagin') AS v FROM asset_balances WHERE account = 'docs' AND account_type = 'usdt_futures'",
        ),
      ).toEqual([{ v: '111,1' }]);
    } finally {
      await warehouse.close();
    }
  });
});
