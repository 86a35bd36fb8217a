import { z } from 'zod';
import { decimalString, idString, msString } from './fields.js';
import { defineStream, flatArrayPage } from './stream.js';

/** docs/platform.md, "Withdrawals and deposits": the record, with `fee` (negative on the live service). */
export const withdrawalSchema = z.looseObject({
  orderId: idString,
  tradeId: z.string().nullish(),
  coin: z.string(),
  clientOid: z.string().nullish(),
  type: z.string().nullish(),
  dest: z.string().nullish(),
  size: decimalString,
  fee: decimalString.nullish(),
  status: z.string(),
  fromAddress: z.string().nullish(),
  toAddress: z.string().nullish(),
  chain: z.string().nullish(),
  confirm: z.string().nullish(),
  tag: z.string().nullish(),
  cTime: msString,
  uTime: msString.nullish(),
});

/** GET /api/v2/spot/wallet/withdrawal-records: 90-day windows, pages of 100, idLessThan = last orderId. */
export const withdrawals = defineStream({
  kind: 'paged',
  name: 'withdrawals',
  path: '/api/v2/spot/wallet/withdrawal-records',
  partitions: [{ name: '', params: {} }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  schema: withdrawalSchema,
  keyField: 'orderId',
  optionalFields: ['fee'],
  time: (record) => Number(record['cTime']),
  readPage: flatArrayPage('orderId'),
});
