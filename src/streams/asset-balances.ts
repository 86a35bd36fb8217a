import { z } from 'zod';
import { optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, instant, text, type Column } from './table.js';
import { expression, field, key, partition, time } from './source.js';
import { defineStream, type SnapshotPart } from './stream.js';

/*
 * The per-asset balance endpoints (docs/platform.md, "Balances"), one per account type, each answering "now".
 * Every field is kept as served; the documented ones are checked beside their columns, to be plain decimals where
 * they are amounts (an empty string reads as absent, as in the funding example's `"frozen": ""`).
 */

const list = (data: unknown): unknown[] => z.array(z.unknown()).parse(data ?? []);
const coinOf = (r: Record<string, unknown>): string => String(r['coin'] ?? r['marginCoin']);

/** One part per account type; the futures accounts per product type, the bots per bot account type. */
const PARTS: readonly SnapshotPart[] = [
  { name: 'spot', path: '/api/v2/spot/account/assets', params: {}, ratePerSecond: 10, readPage: list, keyOf: coinOf },
  ...(['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const).map((productType) => ({
    name: `${productType.split('-')[0]?.toLowerCase()}_futures`,
    path: '/api/v2/mix/account/accounts',
    params: { productType },
    ratePerSecond: 10,
    readPage: list,
    keyOf: coinOf,
  })),
  {
    name: 'margin_crossed',
    path: '/api/v2/margin/crossed/account/assets',
    params: {},
    ratePerSecond: 10,
    readPage: list,
    keyOf: coinOf,
  },
  {
    name: 'margin_isolated',
    path: '/api/v2/margin/isolated/account/assets',
    params: {},
    ratePerSecond: 10,
    readPage: list,
    // Isolated margin holds each pair's coins apart: one row per pair and coin.
    keyOf: (r) => `${String(r['symbol'])}:${coinOf(r)}`,
  },
  { name: 'earn', path: '/api/v2/earn/account/assets', params: {}, ratePerSecond: 10, readPage: list, keyOf: coinOf },
  {
    name: 'funding',
    path: '/api/v2/account/funding-assets',
    params: {},
    ratePerSecond: 10,
    readPage: list,
    keyOf: coinOf,
  },
  // The answer does not say which bot account a row is of, so each is asked apart and keyed by it.
  ...(['spot', 'futures'] as const).map((botType) => ({
    name: 'bots',
    path: '/api/v2/account/bot-assets',
    params: { accountType: botType },
    ratePerSecond: 10,
    readPage: list,
    keyOf: (r: Record<string, unknown>) => `${botType}:${coinOf(r)}`,
  })),
  // A unified account (docs/unified-accounts.md): the unified account's coins, "only non-zero balances being returned"
  // (GET /api/v3/account/assets, 20/s: uta/account/Get-Account.md), under `assets` beside the account's equity; and its
  // funding account's, "only return the coins with assets" (GET /api/v3/account/funding-assets, 20/s:
  // uta/account/Get-Account-Funding-Assets.md).
  {
    name: 'unified',
    path: '/api/v3/account/assets',
    params: {},
    ratePerSecond: 20,
    readPage: (data) =>
      z
        .object({ assets: z.array(z.unknown()).nullish() })
        .loose()
        .parse(data ?? {}).assets ?? [],
    keyOf: coinOf,
    accountModes: ['uta'],
  },
  {
    name: 'funding',
    path: '/api/v3/account/funding-assets',
    params: {},
    ratePerSecond: 20,
    readPage: list,
    keyOf: coinOf,
    accountModes: ['uta'],
  },
  // A follower's copy-trading account, once per project its config names (GET /api/v3/copy/futures/current-copy:
  // eliteTrader, estNetProfit, profitShare, estValue "incl. unrealized PnL", available, currentInvestment, "all in
  // USDT": UnipayFI/go-bitget uta/copy_follower.go). Its rate is not in the sources read: 1/s.
  {
    name: 'copy',
    path: '/api/v3/copy/futures/current-copy',
    params: {},
    ratePerSecond: 1,
    readPage: (data) => (data === null || data === undefined ? [] : [data]),
    accountModes: ['uta'],
    optIn: 'copyProjects',
  },
];

/** Refusals that mean the key may not read an endpoint, or that it does not exist: the account type is unavailable. */
const NOT_READABLE = new Set(['40014', '40404']);

const amountColumn = (name: string, served: string, more = ''): Column =>
  amount(name, `\`${served}\` as served${more}.`, field(served, optionalDecimalString));

/**
 * Per-asset balances, one snapshot per run (docs/completeness.md, "Balances"): one row per account, snapshot, account
 * type and asset (and pair, in isolated margin), with `quantity`, the amount the ledger is compared with.
 */
export const assetBalances = defineStream({
  kind: 'snapshot',
  name: 'asset_balances',
  parts: PARTS,
  // A copy-trading account's summary names no coin (its amounts are in USDT): its estValue stands in.
  recordChecks: [
    {
      check: (r) =>
        (typeof (r['coin'] ?? r['marginCoin']) === 'string' && (r['coin'] ?? r['marginCoin']) !== '') ||
        r['estValue'] !== undefined,
      message: 'neither coin nor marginCoin',
      path: ['coin'],
    },
  ],
  keyField: 'coin',
  // Every field is optional: each account type's endpoint serves its own.
  optionalFields: 'every',
  accountModes: ['classic', 'uta'],
  unavailable: (e) => e.httpStatus === 404 || NOT_READABLE.has(e.platformCode),
  table: {
    name: 'asset_balances',
    kind: 'table',
    description:
      'Per-asset balances (docs/completeness.md, "Balances"): one row per account type and asset of each snapshot a run takes, read from the account type\'s balance endpoint; quantity is the amount the ledger is compared with (sql/models/asset_balances.sql). An account type the key cannot read has one row with asset NULL and unavailable set.',
    keyColumn: 'key',
    columns: [
      accountColumn,
      instant('snapshot_at', "The snapshot's time: the server's clock when ledgerpipe took it.", time()),
      text(
        'account_type',
        "spot, usdt_futures, coin_futures, usdc_futures, margin_crossed, margin_isolated, earn, funding or bots; of a unified account, unified, funding or copy (a copy-trading project's account).",
        partition(),
      ),
      // Upper case, as every record writes a coin (the docs' spot example writes usdt); a copy-trading account names no
      // coin: its amounts are in USDT (sql/models/asset_balances.sql).
      text(
        'asset',
        'The coin (`coin`, or `marginCoin` for futures); NULL on an unavailable row.',
        expression(
          "upper(nullif(coalesce(r.coin, r.marginCoin, CASE WHEN partition = 'copy' THEN 'USDT' END), ''))",
          field('coin', optionalText),
          field('marginCoin', optionalText),
        ),
      ),
      text(
        'symbol',
        'The pair of an isolated margin row (`symbol`), the project of a copy-trading row; else NULL.',
        expression(
          "CASE WHEN partition = 'copy' THEN split_part(key, ':', 2) ELSE nullif(r.symbol, '') END",
          field('symbol', optionalText),
        ),
      ),
      // The project of a copy-trading row and the bot account type of a bots row are in its key (snapshot time, then
      // either).
      text(
        'bot_account_type',
        'Of a bots row: spot or futures, the accountType it was asked with; else NULL.',
        expression("CASE WHEN partition = 'bots' THEN split_part(split_part(key, ':', 2), ':', 1) END"),
      ),
      amount(
        'quantity',
        'The amount the ledger is compared with, by the account type\'s rule (docs/completeness.md, "Balances"); NULL when the fields it needs are absent.',
      ),
      // A part the key could not read is one marker record {"ledgerpipeUnavailable": why}.
      text(
        'unavailable',
        'Why the account type could not be read (the refusal), on its one row; else NULL.',
        field('ledgerpipeUnavailable'),
      ),
      amountColumn('available', 'available'),
      amountColumn('frozen', 'frozen'),
      amountColumn('locked', 'locked'),
      amountColumn('limit_available', 'limitAvailable', ' (spot copy trading)'),
      amountColumn('total_amount', 'totalAmount', ' (margin: available + frozen, borrowed coins included)'),
      amountColumn('borrow', 'borrow', ' (margin: borrowed, owed)'),
      amountColumn('interest', 'interest', ' (margin: interest owed)'),
      amountColumn('net', 'net', ' (margin: available + frozen - borrow - interest)'),
      amountColumn('coupon', 'coupon', ' (trading bonus)'),
      amountColumn('account_equity', 'accountEquity', ' (futures: includes unrealized PnL)'),
      amountColumn('usdt_equity', 'usdtEquity'),
      amountColumn('btc_equity', 'btcEquity'),
      amountColumn('unrealized_pl', 'unrealizedPL'),
      amountColumn('crossed_max_available', 'crossedMaxAvailable'),
      amountColumn('isolated_max_available', 'isolatedMaxAvailable'),
      amountColumn('max_transfer_out', 'maxTransferOut'),
      amountColumn('crossed_risk_rate', 'crossedRiskRate'),
      amountColumn('crossed_unrealized_pl', 'crossedUnrealizedPL'),
      amountColumn('isolated_unrealized_pl', 'isolatedUnrealizedPL'),
      amountColumn('isolated_margin', 'isolatedMargin'),
      amountColumn('crossed_margin', 'crossedMargin'),
      amountColumn('amount', 'amount', ' (earn)'),
      amountColumn('usdt_value', 'usdtValue'),
      amountColumn('equity', 'equity', ' (futures bots)'),
      amountColumn('bonus', 'bonus', ' (futures bots)'),
      amountColumn('balance', 'balance', ' (a unified account: "Coin balance"; its funding account)'),
      amountColumn('debt', 'debt', ' (a unified account: "Debt", owed)'),
      amountColumn('usd_value', 'usdValue', " (a unified account: the coin's equity in USD)"),
      amountColumn('est_value', 'estValue', ' (a copy-trading account: its value, unrealized PnL included)'),
      amountColumn('est_net_profit', 'estNetProfit', ' (a copy-trading account)'),
      amountColumn('profit_share', 'profitShare', ' (a copy-trading account: profit shares paid)'),
      amountColumn('current_investment', 'currentInvestment', ' (a copy-trading account: what was put in, cumulative)'),
      text(
        'fields',
        'The whole row as served (JSON text), every field included.',
        expression(
          'CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END',
          field('ledgerpipeUnavailable'),
        ),
      ),
      text(
        'key',
        "The row's key in raw_records: snapshot time, then the coin (pair and coin in isolated margin; bot account type and coin for bots).",
        key(),
      ),
    ],
  },
});
