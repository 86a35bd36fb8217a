import { z } from 'zod';
import { decimalString } from './fields.js';
import { accountColumn, amount, instant, text } from './table.js';
import { field, time } from './source.js';
import { defineStream } from './stream.js';

/** GET /api/v2/account/all-account-balance: one snapshot per run, keyed by snapshot time and accountType. */
export const accountBalances = defineStream({
  kind: 'snapshot',
  name: 'account_balances',
  parts: [
    {
      name: '',
      path: '/api/v2/account/all-account-balance',
      params: {},
      ratePerSecond: 1,
      readPage: (data) => z.array(z.unknown()).parse(data ?? []),
    },
  ],
  keyField: 'accountType',
  table: {
    name: 'account_balances',
    kind: 'table',
    description:
      'Balance snapshots (GET /api/v2/account/all-account-balance): one row per account type per snapshot, valued in USDT by the platform (sql/models/account_balances.sql).',
    keyColumn: 'account_type',
    columns: [
      accountColumn,
      text(
        'account_type',
        'spot, futures, funding, earn, bots, margin, ... (`accountType`).',
        field('accountType', z.string()),
      ),
      amount(
        'usdt_balance',
        "The account type's balance valued in USDT (`usdtBalance`).",
        field('usdtBalance', decimalString),
      ),
      instant('ts', "The snapshot's time: the server's clock when ledgerpipe took it.", time()),
    ],
  },
});
