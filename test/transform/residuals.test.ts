import { describe, expect, it } from 'vitest';
import { residualLines } from '../../src/cli/completeness-lines.js';
import { runTransforms } from '../../src/transform/runner.js';
import { readCompleteness, readResiduals } from '../../src/reads/completeness.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';

const T0 = Date.UTC(2025, 5, 1);
const T1 = Date.UTC(2025, 6, 1);

/**
 * A snapshot row of the spot bots' balance (GET /api/v2/account/bot-assets?accountType=spot), as extraction files it.
 */
const bots = (at: number, available: string): RawInput => ({
  stream: 'asset_balances',
  partition: 'bots',
  key: `${at}:spot:USDT`,
  ts: at,
  payload: { coin: 'USDT', available, frozen: '0', usdtValue: available },
});

describe("beside the holdings: open loans and the bots' residual (docs/completeness.md)", () => {
  it('sets the change in bot assets against the net strategy transfers, labels the rest a residual and books none of it', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    try {
      await loadRaw(warehouse, [
        bots(T0, '100'),
        bots(T1, '180'),
        // 50 USDT moved from spot into a bot between the two snapshots; the bot made 30 more on its own.
        {
          stream: 'spot_tax_records',
          key: '901',
          ts: T0 + 86_400_000,
          payload: {
            id: '901',
            coin: 'USDT',
            spotTaxType: 'Withdraw to strategy account',
            amount: '-50',
            fee: '0',
            balance: '950',
            ts: String(T0 + 86_400_000),
          },
        },
        // An open loan, as the classic loan endpoint lists it (the docs' example).
        {
          stream: 'loans',
          partition: 'crypto_loans',
          key: `${T1}:1`,
          ts: T1,
          payload: {
            orderId: '1',
            loanCoin: 'ETH',
            loanAmount: '1',
            interestAmount: '0.00000229',
            hourInterestRate: '0.000229',
            pledgeCoin: 'USDT',
            pledgeAmount: '2619.69231032',
            pledgeRate: '65',
            supRate: '75',
            forceRate: '83',
            borrowTime: '1692434472156',
            expireTime: '1693036799999',
          },
        },
      ]);
      await runTransforms(warehouse);
      expect(
        await rows(
          warehouse,
          `SELECT asset, lp_decimal_text(bot_assets_change) AS change, lp_decimal_text(net_strategy_transfers) AS transfers, lp_decimal_text(residual) AS residual, label FROM bot_results`,
        ),
      ).toEqual([
        {
          asset: 'USDT',
          change: '80',
          transfers: '50',
          residual: '30',
          label:
            "residual: the bots' result between two snapshots (bot-assets change less net strategy transfers); no record shows it, nothing is booked",
        },
      ]);
      // Nothing of the residual is in the ledger: only the transfer is.
      expect(await rows(warehouse, 'SELECT category, lp_decimal_text(amount) AS amount FROM ledger')).toEqual([
        { category: 'strategy_transfer', amount: '-50' },
      ]);
      expect(
        await rows(
          warehouse,
          'SELECT order_id, coin, lp_decimal_text(amount) AS amount, collateral_coin, lp_decimal_text(collateral_amount) AS pledged, epoch_ms(as_of) AS at FROM loans',
        ),
      ).toEqual([
        { order_id: '1', coin: 'ETH', amount: '1', collateral_coin: 'USDT', pledged: '2619.69231032', at: String(T1) },
      ]);
      expect(residualLines(await readResiduals(warehouse, { start: T0, end: T1 + 1 }))).toEqual([
        'open loans (SELECT * FROM loans): what is owed now; the ledger books a loan only where a record shows its borrow or repayment',
        '  default 2025-07-01T00:00:00.000Z loan 1: 1 ETH owed (interest 0.00000229), 2619.69231032 USDT pledged',
        "bots' results (SELECT * FROM bot_results): residuals between snapshots, never booked as income",
        '  default USDT 2025-06-01T00:00:00.000Z to 2025-07-01T00:00:00.000Z: bot assets changed by 80, net transfers in 50, residual 30',
      ]);
    } finally {
      await dispose();
    }
  });

  it('reconciles a copy-trading account at its boundary: its transfers and shares booked, its trading what remains, no finding', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    const project = '1188234567';
    // The project's value (GET /api/v3/copy/futures/current-copy: estValue, in USDT) at two snapshots.
    const copy = (at: number, estValue: string): RawInput => ({
      stream: 'asset_balances',
      partition: 'copy',
      key: `${at}:${project}`,
      ts: at,
      payload: {
        eliteTrader: 'x',
        estNetProfit: '0',
        profitShare: '0',
        estValue,
        available: estValue,
        currentInvestment: '0',
      },
    });
    try {
      await loadRaw(warehouse, [
        copy(T0, '100'),
        copy(T1, '230'),
        // 100 USDT moved in from the funding account; a settlement that paid the lead trader 2.
        {
          stream: 'copy_transfers',
          partition: project,
          key: `${T0 + 1000}:funding:copy:USDT:100`,
          ts: T0 + 1000,
          payload: {
            fromType: 'funding',
            toType: 'copy',
            coin: 'USDT',
            amount: '100',
            status: 'successful',
            createdTime: String(T0 + 1000),
          },
        },
        {
          stream: 'copy_profit_shares',
          partition: project,
          key: String(T0 + 2000),
          ts: T0 + 2000,
          payload: {
            settleTime: String(T0 + 2000),
            profit: '20',
            allocatedPnl: '20',
            pendingPnl: '0',
            shareRatio: '0.1',
            shareProfit: '2',
          },
        },
      ]);
      await runTransforms(warehouse);
      expect(
        await rows(
          warehouse,
          'SELECT source, category, account_type, lp_decimal_text(amount) AS amount FROM ledger ORDER BY source',
        ),
      ).toEqual([
        { source: 'copy_profit_shares', category: 'copy_trade_fee', account_type: 'copy', amount: '-2' },
        { source: 'copy_transfers', category: 'account_transfer', account_type: 'copy', amount: '100' },
      ]);
      expect(
        await rows(
          warehouse,
          `SELECT asset, lp_decimal_text(snapshot_change) AS snapshot, lp_decimal_text(ledger_change) AS ledger, lp_decimal_text(unexplained) AS rest, explanation
        FROM reconciliation WHERE account_type = 'copy'`,
        ),
      ).toEqual([
        {
          asset: 'USDT',
          snapshot: '130',
          ledger: '98',
          rest: '32',
          explanation: "copy's own result (no records show it): not a finding",
        },
      ]);
      expect((await readCompleteness(warehouse))?.unexplained).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
