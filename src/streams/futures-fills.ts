import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString } from './fields.js';
import { accountColumn, amount, json, text, tsColumn } from './model.js';
import { defineStream, FUTURES_PARTITIONS } from './stream.js';

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
  partitions: FUTURES_PARTITIONS,
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
  model: {
    name: 'futures_fills',
    kind: 'view',
    description: 'Futures fills (GET /api/v2/mix/order/fill-history), one row per fill, renamed and cast (sql/models/futures_fills.sql).',
    typedAtLoad: { partitionColumn: 'product_type' },
    keyColumn: 'trade_id',
    ledger: 'alone',
    exported: { key: 'trade_id', omit: ['fee_detail'] },
    columns: [
      accountColumn,
      text('product_type', 'USDT-FUTURES, COIN-FUTURES or USDC-FUTURES: the productType the fill was read under.'),
      text('trade_id', "The fill's id (`tradeId`)."),
      text('order_id', 'The order it filled (`orderId`).'),
      text('symbol', 'The contract (`symbol`), such as BTCUSDT or BTCUSDH23.'),
      amount('price', 'The fill price (`price`).'),
      amount('base_volume', 'How much of the base coin traded (`baseVolume`).'),
      amount('quote_volume', 'How much of the quote coin traded (`quoteVolume`).'),
      text('side', 'buy or sell (`side`).'),
      text('trade_side', 'Open, close, liquidation, delivery... (`tradeSide`).'),
      text('pos_mode', 'one_way_mode or hedge_mode (`posMode`).'),
      text('trade_scope', 'taker or maker (`tradeScope`).'),
      text('enter_point_source', 'Where the order came from: web, api, sys (liquidation), ... (`enterPointSource`).'),
      amount('profit', 'Realized profit or loss of the fill in its margin coin (`profit`); 0 for opening fills.'),
      text('margin_coin', 'The margin coin: `marginCoin` when present, else USDT, USDC or the base coin by product type (docs/ledger.md).'),
      amount('fee', "The sum of the fee entries' `totalFee` in the first entry's coin: negative is paid, positive a rebate."),
      text('fee_coin', "The first fee entry's coin (`feeCoin`)."),
      json('fee_detail', 'The `feeDetail` entries exactly as received (not exported: futures_fill_fees has one row per entry).'),
      tsColumn('cTime'),
    ],
    derived: [
      {
        name: 'futures_fill_fees',
        kind: 'view',
        description: "One row per feeDetail entry of a fill (sql/models/futures_fills.sql): the ledger books one trading_fee row per entry whose totalFee is not zero.",
        columns: [
          accountColumn,
          text('product_type', 'The productType the fill was read under.'),
          text('trade_id', "The fill's id."),
          { name: 'n', type: 'BIGINT', description: "The entry's place in feeDetail, from 1 (the ledger's leg fee<n>)." },
          text('fee_coin', 'The coin of the fee (`feeCoin`).'),
          amount('total_fee', 'The fee (`totalFee`): negative is paid, positive a maker rebate.'),
          amount('total_deduction_fee', 'The fee deducted in BGB (`totalDeductionFee`); NULL when absent or empty.'),
          text('deduction', '`yes` when the fee was paid by a BGB deduction (then it is booked as paid, whatever its sign).'),
          text('order_id', 'The order the fill belongs to.'),
          text('symbol', 'The contract.'),
          tsColumn('cTime'),
        ],
      },
    ],
  },
});
