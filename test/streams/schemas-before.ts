import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString } from '../../src/streams/fields.js';

/**
 * The record schemas as they were written by hand before each stream's columns declared their fields (main fc2264f),
 * kept as they were: test/streams/schemas.test.ts holds the schemas now derived from the columns to accept and
 * reject exactly what these did, with the same messages.
 */
// ---- src/streams/deposits.ts

const depositSchema = z.looseObject({
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

// ---- src/streams/withdrawals.ts

const withdrawalSchema = z.looseObject({
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

// ---- src/streams/margin-records.ts

const marginRecordSchema = z.looseObject({
  id: idString,
  coin: z.string(),
  symbol: z.string().nullish(),
  marginTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  total: decimalString.nullish(),
  ts: msString,
});

// ---- src/streams/futures-fills.ts

const feeDetailSchema = z.looseObject({
  deduction: z.string().nullish(),
  feeCoin: z.string(),
  totalDeductionFee: optionalDecimalString,
  totalFee: optionalDecimalString,
});

const futuresFillSchema = z.looseObject({
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

// ---- src/streams/tax-records.ts

const futureTaxRecordSchema = z.looseObject({
  id: idString,
  symbol: z.string().nullish(),
  marginCoin: z.string(),
  futureTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  ts: msString,
});

const spotTaxRecordSchema = z.looseObject({
  id: idString,
  coin: z.string(),
  spotTaxType: z.string(),
  amount: decimalString,
  fee: decimalString.nullish(),
  balance: decimalString.nullish(),
  bizOrderId: z.string().nullish(),
  ts: msString,
});

const p2pTaxRecordSchema = z
  .looseObject({
    id: idString,
    coin: z.string(),
    p2pTaxType: z.string(),
    balance: optionalDecimalString,
    total: optionalDecimalString,
    ts: msString,
  })
  .refine((r) => (r.balance ?? r.total) !== undefined && (r.balance ?? r.total) !== null, {
    message: 'neither balance nor total',
    path: ['balance'],
  });

// ---- src/streams/uta-tax-records.ts

const utaTaxRecordSchema = z.looseObject({
  id: idString,
  coin: z.string(),
  type: z.string(),
  amount: decimalString,
  fee: optionalDecimalString,
  balance: optionalDecimalString,
  ts: msString,
});

// ---- src/streams/uta-financial-records.ts

const utaFinancialRecordSchema = z
  .looseObject({
    category: z.string().nullish(),
    id: idString,
    symbol: z.string().nullish(),
    coin: z.string(),
    type: z.string().nullish(),
    groupType: z.string().nullish(),
    amount: decimalString,
    fee: optionalDecimalString,
    balance: optionalDecimalString,
    positionType: z.string().nullish(),
    positionAmount: optionalDecimalString,
    positionBalance: optionalDecimalString,
    ts: msString,
  })
  .refine((r) => (r.type ?? r.groupType ?? '') !== '', { message: 'neither type nor groupType', path: ['type'] });

// ---- src/streams/copy-trading.ts

const copyTransferSchema = z.looseObject({
  fromType: z.string(),
  toType: z.string(),
  coin: z.string(),
  amount: decimalString,
  status: z.string(),
  createdTime: msString,
});

const copyProfitShareSchema = z.looseObject({
  settleTime: msString,
  profit: optionalDecimalString,
  allocatedPnl: optionalDecimalString,
  pendingPnl: optionalDecimalString,
  shareRatio: optionalDecimalString,
  shareProfit: decimalString,
});

const leadTraderProfitSchema = z.looseObject({
  profitId: idString,
  coin: z.string(),
  profit: decimalString,
  nickName: z.string().nullish(),
  profitTime: msString,
});

// ---- src/streams/p2p-advertisements.ts

const advertisementSchema = z
  .looseObject({
    advId: idString,
    advNo: z.string().nullish(),
    side: z.string().nullish(),
    coin: z.string().nullish(),
    fiat: z.string().nullish(),
    status: z.string().nullish(),
    // Read with lp_amount (sql/models/p2p_advertisements.sql): checked here like every other amount.
    advSize: optionalDecimalString,
    size: optionalDecimalString,
    price: optionalDecimalString,
    minTradeAmount: optionalDecimalString,
    maxTradeAmount: optionalDecimalString,
    cTime: msString.optional(),
    ctime: msString.optional(),
  })
  .refine((r) => r.cTime !== undefined || r.ctime !== undefined, {
    message: 'neither cTime nor ctime',
    path: ['cTime'],
  });

// ---- src/streams/account-balances.ts

const balanceSchema = z.looseObject({ accountType: z.string(), usdtBalance: decimalString });

// ---- src/streams/asset-balances.ts

const amountFields = [
  'available',
  'frozen',
  'locked',
  'limitAvailable',
  'totalAmount',
  'borrow',
  'interest',
  'net',
  'coupon',
  'accountEquity',
  'usdtEquity',
  'btcEquity',
  'unrealizedPL',
  'crossedMaxAvailable',
  'isolatedMaxAvailable',
  'maxTransferOut',
  'crossedRiskRate',
  'crossedUnrealizedPL',
  'isolatedUnrealizedPL',
  'isolatedMargin',
  'crossedMargin',
  'amount',
  'usdtValue',
  'equity',
  'bonus',
  'balance',
  'debt',
  'usdValue',
  'estValue',
  'estNetProfit',
  'profitShare',
  'currentInvestment',
] as const;

const assetBalanceSchema = z
  .looseObject({
    coin: z.string().nullish(),
    marginCoin: z.string().nullish(),
    symbol: z.string().nullish(),
    ...Object.fromEntries(amountFields.map((f) => [f, optionalDecimalString])),
  })
  // A copy-trading account's summary names no coin (its amounts are in USDT): its estValue stands in.
  .refine(
    (r) =>
      (typeof (r.coin ?? r.marginCoin) === 'string' && (r.coin ?? r.marginCoin) !== '') || r['estValue'] !== undefined,
    { message: 'neither coin nor marginCoin', path: ['coin'] },
  );

// ---- src/streams/loans.ts

const loanSchema = z.looseObject({
  orderId: z.string(),
  loanCoin: z.string(),
  loanAmount: optionalDecimalString,
  interestAmount: optionalDecimalString,
  pledgeCoin: z.string().nullish(),
  pledgeAmount: optionalDecimalString,
  hourInterestRate: optionalDecimalString,
  pledgeRate: optionalDecimalString,
  borrowTime: z.string().nullish(),
  expireTime: z.string().nullish(),
});

export const SCHEMAS_BEFORE = {
  depositSchema,
  withdrawalSchema,
  marginRecordSchema,
  futuresFillSchema,
  futureTaxRecordSchema,
  spotTaxRecordSchema,
  p2pTaxRecordSchema,
  utaTaxRecordSchema,
  utaFinancialRecordSchema,
  copyTransferSchema,
  copyProfitShareSchema,
  leadTraderProfitSchema,
  advertisementSchema,
  balanceSchema,
  assetBalanceSchema,
  loanSchema,
};
