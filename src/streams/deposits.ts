import { z } from 'zod';
import { decimalString, idString, msString } from './fields.js';
import { defineStream, flatArrayPage } from './stream.js';

/** docs/platform.md, "Withdrawals and deposits": like a withdrawal record. */
export const depositSchema = z.looseObject({
  orderId: idString,
  tradeId: z.string().nullish(),
  coin: z.string(),
  type: z.string().nullish(),
  size: decimalString,
  status: z.string(),
  toAddress: z.string().nullish(),
  dest: z.string().nullish(),
  chain: z.string().nullish(),
  fromAddress: z.string().nullish(),
  cTime: msString,
  uTime: msString.nullish(),
});

/** GET /api/v2/spot/wallet/deposit-records: 90-day windows, pages of 100, idLessThan = last orderId, 10/s. */
export const deposits = defineStream({
  kind: 'paged',
  name: 'deposits',
  path: '/api/v2/spot/wallet/deposit-records',
  partitions: [{ name: '', params: {} }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  schema: depositSchema,
  keyField: 'orderId',
  time: (record) => Number(record['cTime']),
  readPage: flatArrayPage('orderId'),
});
