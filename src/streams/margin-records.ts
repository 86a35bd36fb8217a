import { z } from 'zod';
import { decimalString, idString, msString } from './fields.js';
import { defineStream, flatArrayPage } from './stream.js';

/** docs/platform.md, "Tax records": the margin record; marginTaxType kept open. */
export const marginRecordSchema = z.looseObject({
  id: idString,
  coin: z.string(),
  symbol: z.string().nullish(),
  marginTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  total: decimalString.nullish(),
  ts: msString,
});

/**
 * GET /api/v2/tax/margin-record, both margin types: the live service answers only `crossed` when
 * marginType is omitted, and spells it `crossed` where the spec writes `cross` (docs/platform.md, "Windows, pages and rates").
 */
export const marginRecords = defineStream({
  kind: 'paged',
  name: 'margin_records',
  path: '/api/v2/tax/margin-record',
  partitions: [
    { name: 'crossed', params: { marginType: 'crossed' } },
    { name: 'isolated', params: { marginType: 'isolated' } },
  ],
  maxWindowDays: 366,
  pageLimit: 500,
  ratePerSecond: 1,
  schema: marginRecordSchema,
  keyField: 'id',
  time: (record) => Number(record['ts']),
  readPage: flatArrayPage('id'),
});
