import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString } from './fields.js';
import { defineStream } from './stream.js';

// Fee fields may be null, and real fills carry totalDeductionFee as "0", null or "" (docs/platform.md, "Fills").
const feeDetailSchema = z.looseObject({
  deduction: z.string().nullish(),
  feeCoin: z.string(),
  totalDeductionFee: optionalDecimalString,
  totalFee: optionalDecimalString,
});

/** docs/platform.md, "Fills": the fill record; `marginCoin` appears on fills since 2025. */
export const futuresFillSchema = z.looseObject({
  tradeId: idString,
  symbol: z.string(),
  orderId: z.string(),
  price: decimalString,
  baseVolume: decimalString,
  quoteVolume: decimalString,
  feeDetail: z.array(feeDetailSchema).nullish(),
  side: z.string(),
  profit: decimalString.nullish(),
  enterPointSource: z.string().nullish(),
  tradeSide: z.string().nullish(),
  posMode: z.string().nullish(),
  tradeScope: z.string().nullish(),
  cTime: msString,
  marginCoin: z.string().nullish(),
});

const pageSchema = z
  .object({ fillList: z.array(z.unknown()).nullish(), endId: z.string().nullish() })
  .nullish();

/**
 * GET /api/v2/mix/order/fill-history for the three live product types; demo product types are never sent
 * (the spec says the endpoint has no demo data). An empty answer may be `data: null` (docs/platform.md, "Fills").
 */
export const futuresFills = defineStream({
  kind: 'paged',
  name: 'futures_fills',
  path: '/api/v2/mix/order/fill-history',
  partitions: ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'].map((name) => ({ name, params: { productType: name } })),
  maxWindowDays: 7,
  pageLimit: 100,
  ratePerSecond: 10,
  schema: futuresFillSchema,
  keyField: 'tradeId',
  optionalFields: ['marginCoin'],
  time: (record) => Number(record['cTime']),
  readPage: (data) => {
    const page = pageSchema.parse(data);
    const records = page?.fillList ?? [];
    const endId = page?.endId ?? '';
    return { records, cursor: endId === '' ? undefined : endId };
  },
});
