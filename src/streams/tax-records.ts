import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString } from './fields.js';
import { defineStream, flatArrayPage } from './stream.js';

/** The live docs give the tax-record endpoints a 30-day window; a narrower one is learned if refused. */
const TAX_WINDOW_DAYS = 30;
const TAX_PAGE = 500;
const time = (record: Record<string, unknown>): number => Number(record['ts']);

export const futureTaxRecordSchema = z.looseObject({
  id: idString,
  symbol: z.string().nullish(),
  marginCoin: z.string(),
  futureTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  ts: msString,
});

/** GET /api/v2/tax/future-record per product type: funding fees (which fill-history lacks), settlements, liquidations. */
export const futuresTaxRecords = defineStream({
  kind: 'paged',
  name: 'futures_tax_records',
  path: '/api/v2/tax/future-record',
  partitions: ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'].map((name) => ({ name, params: { productType: name } })),
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  schema: futureTaxRecordSchema,
  keyField: 'id',
  time,
  readPage: flatArrayPage('id'),
});

export const spotTaxRecordSchema = z.looseObject({
  id: idString,
  coin: z.string(),
  spotTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  balance: decimalString.nullish(),
  bizOrderId: z.string().nullish(),
  ts: msString,
});

/** GET /api/v2/tax/spot-record. */
export const spotTaxRecords = defineStream({
  kind: 'paged',
  name: 'spot_tax_records',
  path: '/api/v2/tax/spot-record',
  partitions: [{ name: '', params: {} }],
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  schema: spotTaxRecordSchema,
  keyField: 'id',
  time,
  readPage: flatArrayPage('id'),
});

/**
 * The amount moved is `balance` in the newest docs' example and `total` in the earlier docs and in SDK types
 * (docs/platform.md, "Tax records"): either will do, one must be there.
 */
export const p2pTaxRecordSchema = z
  .looseObject({
    id: idString,
    coin: z.string(),
    p2pTaxType: z.string(),
    balance: optionalDecimalString,
    total: optionalDecimalString,
    ts: msString,
  })
  .refine((r) => (r.balance ?? r.total) !== undefined && (r.balance ?? r.total) !== null, { message: 'neither balance nor total', path: ['balance'] });

/** GET /api/v2/tax/p2p-record; the amount moved is in `balance` or `total` (docs/platform.md). */
export const p2pTaxRecords = defineStream({
  kind: 'paged',
  name: 'p2p_tax_records',
  path: '/api/v2/tax/p2p-record',
  partitions: [{ name: '', params: {} }],
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  schema: p2pTaxRecordSchema,
  keyField: 'id',
  optionalFields: ['balance', 'total'],
  time,
  readPage: flatArrayPage('id'),
});
