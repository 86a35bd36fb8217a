import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesAt, keyFrom } from '../../src/sim/data/accounts.js';
import { formatUnits } from '../../src/sim/data/decimal.js';
import { copyProjectOf } from '../../src/sim/data/uta/dataset.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, simEnv, type CliResult } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';
import { signedGet } from '../helpers/signed-get.js';
import { cointrackingNets, koinlyNets, ledgerNets, netLines } from '../helpers/tax-files.js';

// A unified trading account (docs/unified-accounts.md; docs/simulator.md, "A unified account"): what
// `ledgerpipe demo --account-mode uta` runs.
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);

let dir: string;
let sim: Simulator;
let classic: Simulator;
let yearEnd: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-uta-'));
  sim = await startSimulator({ dataset: 'retail', accountMode: 'uta', from: FROM, to: TO, rateScale: 1000 });
  classic = await startSimulator({ dataset: 'retail', from: FROM, to: TO, rateScale: 1000 });
  // The account copies a lead trader in a project its config names (no endpoint lists a follower's projects).
  const config = {
    accounts: [
      {
        name: 'default',
        baseUrl: sim.baseUrl,
        env: { key: 'LEDGERPIPE_API_KEY', secret: 'LEDGERPIPE_API_SECRET', passphrase: 'LEDGERPIPE_API_PASSPHRASE' },
        copyTrading: { projects: [copyProjectOf('retail')] },
      },
    ],
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  yearEnd = await runCliHere(
    [
      'run',
      'year-end',
      '--year',
      '2025',
      '--fiat',
      'EUR',
      '--quiet',
      '--config',
      join(dir, 'config.json'),
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--format',
      'csv,koinly,cointracking,report',
      '--rate-scale',
      '1000',
    ],
    { env: simEnv(sim.credentials) },
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([sim.close(), classic.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** A decimal as lp_decimal_text writes it: no trailing zeros, no trailing point, 0 for zero. */
const plain = (v: unknown): string => {
  const t = String(v ?? '');
  if (!/^-?\d+\.\d+$/.test(t)) return t;
  const s = t.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
};

/**
 * Every record of a stream as the simulator generated it: partition, id, coin, type, groupType, amount, fee, balance.
 */
function truthOf(stream: 'uta_tax_records' | 'uta_financial_records'): string[] {
  return sim.dataset.streams[stream].flatMap((p) =>
    p.records.map((r) =>
      [
        p.name,
        r.id,
        r.record['coin'],
        r.record['type'],
        r.record['groupType'],
        r.record['amount'],
        r.record['fee'],
        r.record['balance'],
      ]
        .map(plain)
        .join(' '),
    ),
  );
}

/** The same of the warehouse's typed rows. */
const lines = (found: Record<string, string | null>[]): string[] =>
  found.map((r) => Object.values(r).map(plain).join(' ')).sort();

describe('a unified trading account, read through the v3 endpoints', () => {
  it('is found by its settings, reads its own streams only, and lands every record exactly as served', async () => {
    expect([yearEnd.status, yearEnd.stderr]).toEqual([0, '']);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(await rows(warehouse, 'SELECT account, mode, account_mode FROM account_modes')).toEqual([
        { account: 'default', mode: 'uta', account_mode: 'unified' },
      ]);
      // No classic stream was asked for: the platform refuses a unified key there (40085).
      expect(
        await rows(warehouse, "SELECT DISTINCT stream, partition FROM coverage WHERE stream LIKE 'copy%' ORDER BY 1"),
      ).toEqual([
        { stream: 'copy_profit_shares', partition: copyProjectOf('retail') },
        { stream: 'copy_transfers', partition: copyProjectOf('retail') },
      ]);
      expect(await rows(warehouse, 'SELECT DISTINCT stream FROM coverage ORDER BY 1')).toEqual(
        ['copy_profit_shares', 'copy_transfers', 'uta_financial_records', 'uta_tax_records'].map((stream) => ({
          stream,
        })),
      );
      const tax = await rows(
        warehouse,
        'SELECT biz_type, id, coin, type, NULL AS g, lp_decimal_text(amount), lp_decimal_text(fee), lp_decimal_text(balance) FROM uta_tax_records',
      );
      const fin = await rows(
        warehouse,
        'SELECT category, id, coin, type, group_type, lp_decimal_text(amount), lp_decimal_text(fee), lp_decimal_text(balance) FROM uta_financial_records',
      );
      expect(lines(tax)).toEqual(truthOf('uta_tax_records').sort());
      expect(lines(fin)).toEqual(truthOf('uta_financial_records').sort());
      expect(tax.length).toBeGreaterThan(300);
      expect(fin.filter((r) => r['category'] === 'funding').length).toBeGreaterThan(10);
    } finally {
      await warehouse.close();
    }
  });

  it('chains every running balance, pairs every transfer, and gives every disposal an acquisition', async () => {
    expect(yearEnd.stdout).toMatch(
      / {2}the records agree with every running balance: \d+ running-balance steps checked[^;\n]*; only one balance snapshot was read, so none was set against the ledger: a later run takes a second\n/,
    );
    expect(yearEnd.stdout).toContain('  every internal transfer has its counterpart\n');
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(
        await rows(
          warehouse,
          `SELECT (SELECT count(*) FROM balance_breaks) AS breaks, (SELECT count(*) FROM sign_mismatches) AS mismatches,
        (SELECT count(*) FROM unpaired_transfers) AS unpaired, (SELECT count(*) FILTER (WHERE checked) FROM lp_balance_steps() WHERE stream LIKE 'uta%') > 500 AS checked`,
        ),
      ).toEqual([{ breaks: '0', mismatches: '0', unpaired: '0', checked: 'true' }]);
      // Every movement booked once: the unified account from its tax records, the funding account from its own, the
      // copy account's transfers and profit shares from its records (the shares a cost: trading_fee).
      expect(await rows(warehouse, 'SELECT DISTINCT source, account_type FROM ledger ORDER BY 1, 2')).toEqual([
        { source: 'copy_profit_shares', account_type: 'copy' },
        { source: 'copy_transfers', account_type: 'copy' },
        { source: 'uta_financial_records', account_type: 'funding' },
        { source: 'uta_tax_records', account_type: 'unified' },
      ]);
      const shares = sim.dataset.streams.copy_profit_shares
        .flatMap((p) => p.records)
        .filter((r) => r.record['shareProfit'] !== '0.00000000');
      expect(
        await rows(
          warehouse,
          "SELECT count(*) AS n, lp_total(l.amount) AS total, any_value(m.tax_class) AS tax_class FROM ledger AS l JOIN category_meaning AS m USING (category) WHERE source = 'copy_profit_shares'",
        ),
      ).toEqual([
        {
          n: String(shares.length),
          total: plain(
            formatUnits(-shares.reduce((t, r) => t + BigInt(String(r.record['shareProfit']).replace('.', '')), 0n), 8),
          ),
          tax_class: 'trading_fee',
        },
      ]);
      expect(await rows(warehouse, "SELECT count(*) AS n FROM ledger WHERE category = 'unreviewed'")).toEqual([
        { n: '0' },
      ]);
      // The ledger's end balance per account type and coin is the simulator's own; the copy account's but for its
      // trading, which no record shows (the snapshot below has it).
      const held = [...balancesAt(sim.dataset.account, TO)].map(([k, u]) => ({ ...keyFrom(k), u }));
      const trading = sim.dataset.account.movements
        .filter((m) => m.id.startsWith('trading:'))
        .reduce((t, m) => t + m.units, 0n);
      const line = (b: { accountType: string; asset: string; u: bigint }) =>
        `${b.accountType} ${b.asset} ${plain(formatUnits(b.u, 8))}`;
      const truth = held
        .filter((b) => b.u !== 0n)
        .map(line)
        .sort();
      const recorded = held
        .map((b) => (b.accountType === 'copy' ? { ...b, u: b.u - trading } : b))
        .filter((b) => b.u !== 0n)
        .map(line)
        .sort();
      const booked = await rows(
        warehouse,
        "SELECT account_type || ' ' || asset || ' ' || lp_total(amount) AS line FROM ledger GROUP BY account_type, asset HAVING sum(amount) <> 0",
      );
      expect(booked.map((r) => String(r['line'])).sort()).toEqual(recorded);
      expect(
        await rows(
          warehouse,
          "SELECT count(*) FILTER (WHERE match_rule LIKE '%unmatched') AS unmatched, count(*) > 100 AS many FROM disposals",
        ),
      ).toEqual([{ unmatched: '0', many: 'true' }]);
      // The tax files balance to the ledger: their import gives each coin the ledger's net change less internal
      // transfers.
      const ledger = netLines(await ledgerNets(warehouse, FROM, TO));
      expect(netLines(koinlyNets(await readFile(join(dir, 'out', 'koinly.csv'), 'utf8')))).toEqual(ledger);
      expect(netLines(cointrackingNets(await readFile(join(dir, 'out', 'cointracking.csv'), 'utf8')))).toEqual(ledger);
      // The snapshot of the unified and funding accounts: the v3 balances, each coin's quantity the truth's.
      const now = await rows(
        warehouse,
        "SELECT account_type || ' ' || asset || ' ' || lp_decimal_text(quantity) AS line FROM asset_balances ORDER BY 1",
      );
      expect(now.map((r) => String(r['line']))).toEqual(truth);
    } finally {
      await warehouse.close();
    }
  });

  it('snapshots its open loan on the run, books the borrow its funding record shows, and shows the loan in the summary and report', async () => {
    const open = sim.dataset.openLoans ?? [];
    expect(open.length).toBe(1);
    const loan = open[0] as Record<string, string>;
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(
        await rows(
          warehouse,
          'SELECT order_id, coin, lp_decimal_text(amount) AS amount, collateral_coin, lp_decimal_text(collateral_amount) AS pledged, epoch_ms(borrowed_at) AS borrowed FROM loans',
        ),
      ).toEqual([
        {
          order_id: loan['orderId'],
          coin: 'ETH',
          amount: plain(loan['loanAmount']),
          collateral_coin: 'USDT',
          pledged: plain(loan['pledgeAmount']),
          borrowed: loan['borrowTime'],
        },
      ]);
      // The borrow in the ledger, from the funding account's record of it (groupType loan: tax class loan).
      expect(
        await rows(
          warehouse,
          "SELECT category, asset, account_type, lp_decimal_text(amount) AS amount, epoch_ms(ts) AS at FROM ledger WHERE category = 'crypto_loan'",
        ),
      ).toEqual([
        {
          category: 'crypto_loan',
          asset: 'ETH',
          account_type: 'funding',
          amount: plain(loan['loanAmount']),
          at: loan['borrowTime'],
        },
      ]);
    } finally {
      await warehouse.close();
    }
    expect(yearEnd.stdout).toContain(`loan ${loan['orderId']}: ${plain(loan['loanAmount'])} ETH owed`);
    const report = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    expect(report).toContain('<h2>Open loans and bots</h2>');
    expect(report).toContain(`data-order="${loan['orderId']}"`);
  });

  it('is refused on the classic endpoints (40085), and a classic key on the unified ones (40084)', async () => {
    const onClassic = await signedGet(sim, '/api/v2/tax/spot-record', {
      startTime: String(FROM),
      endTime: String(FROM + 86_400_000),
    });
    expect([onClassic.status, JSON.parse(onClassic.text).code]).toEqual([400, '40085']);
    const onUnified = await signedGet(classic, '/api/v3/account/settings');
    expect([onUnified.status, JSON.parse(onUnified.text).code]).toEqual([400, '40084']);
  });
});
