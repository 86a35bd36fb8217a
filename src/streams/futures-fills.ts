import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, json, text, tsColumn } from './table.js';
import { expression, field, partition } from './source.js';
import { defineStream, FUTURES_PARTITIONS } from './stream.js';

// Fee fields may be null, and real fills carry totalDeductionFee as "0", null or "" (docs/platform.md, "Fills").
const feeDetailSchema = z.looseObject({
  deduction: z.string().nullish(),
  feeCoin: z.string(),
  totalDeductionFee: optionalDecimalString,
  totalFee: optionalDecimalString,
});

const pageSchema = z.object({ fillList: z.array(z.unknown()).nullish(), endId: z.string().nullish() }).nullish();

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
  keyField: 'tradeId',
  optionalFields: ['marginCoin'],
  readPage: (data) => {
    const page = pageSchema.parse(data);
    const records = page?.fillList ?? [];
    const endId = page?.endId ?? '';
    return { records, cursor: endId === '' ? undefined : endId };
  },
  table: {
    name: 'futures_fills',
    kind: 'view',
    description:
      'Futures fills (GET /api/v2/mix/order/fill-history), one row per fill, renamed and cast (sql/models/futures_fills.sql).',
    typedAtLoad: { partitionColumn: 'product_type' },
    keyColumn: 'trade_id',
    ledger: 'alone',
    exported: { key: 'trade_id', omit: ['fee_detail'] },
    // The fill record's fields, each checked beside its column (docs/platform.md, "Fills"); `marginCoin` appears on
    // fills since 2025. margin_coin, fee and fee_coin are rules of sql/models/futures_fills.sql.
    columns: [
      accountColumn,
      text(
        'product_type',
        'USDT-FUTURES, COIN-FUTURES or USDC-FUTURES: the productType the fill was read under.',
        partition(),
      ),
      text('trade_id', "The fill's id (`tradeId`).", field('tradeId', idString)),
      text('order_id', 'The order it filled (`orderId`).', field('orderId', z.string())),
      text('symbol', 'The contract (`symbol`), such as BTCUSDT or BTCUSDH23.', field('symbol', z.string())),
      amount('price', 'The fill price (`price`).', field('price', decimalString)),
      amount('base_volume', 'How much of the base coin traded (`baseVolume`).', field('baseVolume', decimalString)),
      amount('quote_volume', 'How much of the quote coin traded (`quoteVolume`).', field('quoteVolume', decimalString)),
      text('side', 'buy or sell (`side`).', field('side', z.string())),
      text('trade_side', 'Open, close, liquidation, delivery... (`tradeSide`).', field('tradeSide', optionalText)),
      text('pos_mode', 'one_way_mode or hedge_mode (`posMode`).', field('posMode', optionalText)),
      text('trade_scope', 'taker or maker (`tradeScope`).', field('tradeScope', optionalText)),
      text(
        'enter_point_source',
        'Where the order came from: web, api, sys (liquidation), ... (`enterPointSource`).',
        field('enterPointSource', optionalText),
      ),
      amount(
        'profit',
        'Realized profit or loss of the fill in its margin coin (`profit`); 0 for opening fills.',
        field('profit', decimalString.nullish()),
      ),
      text(
        'margin_coin',
        'The margin coin: `marginCoin` when present, else USDT, USDC or the base coin by product type (docs/ledger.md).',
        expression(
          'lp_fill_margin_coin(partition, r.marginCoin, r.symbol)',
          field('marginCoin', optionalText),
          field('symbol'),
        ),
      ),
      amount(
        'fee',
        "The sum of the fee entries' `totalFee` in the first entry's coin: negative is paid, positive a rebate.",
        expression(
          'lp_fill_fee(lp_fee_detail(r.feeDetail))',
          field('feeDetail', z.array(feeDetailSchema).nullish(), { json: true }),
        ),
      ),
      text(
        'fee_coin',
        "The first fee entry's coin (`feeCoin`).",
        expression('lp_fee_detail(r.feeDetail)[1].feeCoin', field('feeDetail', undefined, { json: true })),
      ),
      json(
        'fee_detail',
        'The `feeDetail` entries exactly as received (not exported: futures_fill_fees has one row per entry).',
        field('feeDetail'),
      ),
      tsColumn('cTime', msString),
    ],
    derived: [
      {
        name: 'futures_fill_fees',
        kind: 'view',
        description:
          'One row per feeDetail entry of a fill (sql/models/futures_fills.sql): the ledger books one trading_fee row per entry whose totalFee is not zero.',
        columns: [
          accountColumn,
          text('product_type', 'The productType the fill was read under.'),
          text('trade_id', "The fill's id."),
          {
            name: 'n',
            type: 'BIGINT',
            description: "The entry's place in feeDetail, from 1 (the ledger's leg fee<n>).",
          },
          text('fee_coin', 'The coin of the fee (`feeCoin`).'),
          amount('total_fee', 'The fee (`totalFee`): negative is paid, positive a maker rebate.'),
          amount('total_deduction_fee', 'The fee deducted in BGB (`totalDeductionFee`); NULL when absent or empty.'),
          text(
            'deduction',
            '`yes` when the fee was paid by a BGB deduction (then it is booked as paid, whatever its sign).',
          ),
          text('order_id', 'The order the fill belongs to.'),
          text('symbol', 'The contract.'),
          tsColumn('cTime'),
        ],
      },
    ],
  },
});
