import { z } from 'zod';
import { decimalString } from './fields.js';
import { defineStream } from './stream.js';

export const balanceSchema = z.looseObject({ accountType: z.string(), usdtBalance: decimalString });

/** GET /api/v2/account/all-account-balance: one snapshot per run, keyed by snapshot time and accountType. */
export const accountBalances = defineStream({
  kind: 'snapshot',
  name: 'account_balances',
  path: '/api/v2/account/all-account-balance',
  ratePerSecond: 1,
  schema: balanceSchema,
  keyField: 'accountType',
  readPage: (data) => z.array(z.unknown()).parse(data ?? []),
});
