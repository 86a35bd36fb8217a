import { z } from 'zod';
import { optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, instant, text } from './table.js';
import { expression, field, key, time } from './source.js';
import { defineStream, type SnapshotPart } from './stream.js';

/**
 * Open crypto loans (docs/completeness.md, "Open loans"). The loan histories list only closed loans ("status
 * ROLLBACK|FORCE|REPAY only": research notes; a tax tool's users: no borrow data "until repaid"), so what is owed is
 * read as it stands on every run, beside the balances. A classic account's GET /api/v2/earn/loan/ongoing-orders ("Get
 * on-going loan orders", 10/s: https://www.bitget.com/api-doc/earn/loan/Get-Loan-Orders; mirror
 * earn/loan/Get-Loan-Orders.md) and a unified account's GET /api/v3/loan/borrow-ongoing ("the unified account's open
 * (outstanding) crypto loans": UnipayFI/go-bitget uta/crypto_loan.go), the same fields: orderId, loanCoin,
 * loanAmount, interestAmount, hourInterestRate, pledgeCoin, pledgeAmount, pledgeRate, supRate, forceRate, borrowTime,
 * expireTime (each checked beside its column). GET /api/v2/earn/loan/debts gives only totals per coin: not read.
 */

const list = (data: unknown): unknown[] => z.array(z.unknown()).parse(data ?? []);

const PARTS: readonly SnapshotPart[] = [
  { name: 'crypto_loans', path: '/api/v2/earn/loan/ongoing-orders', params: {}, ratePerSecond: 10, readPage: list },
  {
    name: 'crypto_loans',
    path: '/api/v3/loan/borrow-ongoing',
    params: {},
    ratePerSecond: 10,
    readPage: list,
    accountModes: ['uta'],
  },
];

/** Refusals that mean the key may not read loans, or the endpoint does not exist: recorded as unavailable. */
const NOT_READABLE = new Set(['40014', '40404']);

/** The open loans as of each run: one row per loan (sql/models/loans.sql). */
export const loans = defineStream({
  kind: 'snapshot',
  name: 'loans',
  parts: PARTS,
  accountModes: ['classic', 'uta'],
  keyField: 'orderId',
  optionalFields: [
    'loanAmount',
    'interestAmount',
    'pledgeCoin',
    'pledgeAmount',
    'hourInterestRate',
    'pledgeRate',
    'borrowTime',
    'expireTime',
  ],
  unavailable: (e) => e.httpStatus === 404 || NOT_READABLE.has(e.platformCode),
  table: {
    name: 'loans',
    kind: 'table',
    description:
      'Open crypto loans as of each run (GET /api/v2/earn/loan/ongoing-orders; a unified account\'s GET /api/v3/loan/borrow-ongoing): one row per loan and snapshot, what is owed and what is pledged for it (sql/models/loans.sql; docs/completeness.md, "Open loans"). A key that cannot read loans has one row with order_id NULL and unavailable set.',
    keyColumn: 'key',
    columns: [
      accountColumn,
      instant('as_of', "The snapshot's time: the server's clock when ledgerpipe read it.", time()),
      // A part the key could not read is one marker record {"ledgerpipeUnavailable": why}.
      text(
        'order_id',
        "The loan's order (`orderId`); NULL on an unavailable row.",
        expression(
          'CASE WHEN r.ledgerpipeUnavailable IS NULL THEN r.orderId END',
          field('orderId', z.string()),
          field('ledgerpipeUnavailable'),
        ),
      ),
      text('coin', 'The coin borrowed (`loanCoin`).', field('loanCoin', z.string(), { upper: true })),
      amount('amount', 'What is borrowed and owed (`loanAmount`).', field('loanAmount', optionalDecimalString)),
      amount(
        'interest',
        'The interest owed so far (`interestAmount`).',
        field('interestAmount', optionalDecimalString),
      ),
      text('collateral_coin', 'The coin pledged (`pledgeCoin`).', field('pledgeCoin', optionalText, { upper: true })),
      amount('collateral_amount', 'The amount pledged (`pledgeAmount`).', field('pledgeAmount', optionalDecimalString)),
      amount('hour_interest_rate', '`hourInterestRate` as served.', field('hourInterestRate', optionalDecimalString)),
      amount('pledge_rate', '`pledgeRate` as served (a percentage).', field('pledgeRate', optionalDecimalString)),
      instant('borrowed_at', 'When it was borrowed (`borrowTime`).', field('borrowTime', optionalText)),
      instant('expires_at', 'When it falls due (`expireTime`).', field('expireTime', optionalText)),
      text(
        'unavailable',
        'Why the loans could not be read (the refusal), on its one row; else NULL.',
        field('ledgerpipeUnavailable'),
      ),
      text(
        'fields',
        'The whole row as served (JSON text).',
        expression(
          'CASE WHEN r.ledgerpipeUnavailable IS NULL THEN CAST(payload AS VARCHAR) END',
          field('ledgerpipeUnavailable'),
        ),
      ),
      text('key', "The row's key in raw_records: snapshot time, then the order.", key()),
    ],
  },
});
