import { z } from 'zod';
import { idString, msString, optionalDecimalString } from './fields.js';
import { defineStream } from './stream.js';

/** rest-interface.md "Merchant advertisement"; the example spells the times ctime/utime, so either is read. */
export const advertisementSchema = z.looseObject({
  advId: idString,
  advNo: z.string().nullish(),
  side: z.string().nullish(),
  coin: z.string().nullish(),
  fiat: z.string().nullish(),
  status: z.string().nullish(),
  // Read with lp_amount (sql/staging/40_p2p_advertisements.sql): checked here like every other amount.
  advSize: optionalDecimalString,
  size: optionalDecimalString,
  price: optionalDecimalString,
  minTradeAmount: optionalDecimalString,
  maxTradeAmount: optionalDecimalString,
  cTime: msString.optional(),
  ctime: msString.optional(),
}).refine((r) => r.cTime !== undefined || r.ctime !== undefined, { message: 'neither cTime nor ctime', path: ['cTime'] });

const pageSchema = z
  .object({ advList: z.array(z.unknown()).nullish(), merchantList: z.array(z.unknown()).nullish(), minAdvId: z.string().nullish() })
  .nullish();

/** GET /api/v2/p2p/advList: 90-day windows; the list key is advList or merchantList (the spec has both). */
export const p2pAdvertisements = defineStream({
  kind: 'paged',
  name: 'p2p_advertisements',
  path: '/api/v2/p2p/advList',
  partitions: [{ name: '', params: {} }],
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 10,
  schema: advertisementSchema,
  keyField: 'advId',
  optionalFields: ['cTime', 'ctime'],
  time: (record) => Number(record['cTime'] ?? record['ctime']),
  readPage: (data) => {
    const page = pageSchema.parse(data);
    const records = page?.advList ?? page?.merchantList ?? [];
    const minAdvId = page?.minAdvId ?? '';
    return { records, cursor: minAdvId === '' ? undefined : minAdvId };
  },
});
