import { z } from 'zod';
import { idString, msString, optionalDecimalString } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './model.js';
import { defineStream } from './stream.js';

/** docs/platform.md, "P2P advertisements"; the example spells the times ctime/utime, so either is read. */
export const advertisementSchema = z.looseObject({
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
}).refine((r) => r.cTime !== undefined || r.ctime !== undefined, { message: 'neither cTime nor ctime', path: ['cTime'] });

const pageSchema = z
  .object({ advList: z.array(z.unknown()).nullish(), merchantList: z.array(z.unknown()).nullish(), minAdvId: z.string().nullish() })
  .nullish();

/** The values of the parameters the live docs require that split the advertisements (docs/platform.md). */
const SIDES = ['buy', 'sell'] as const;
const STATUSES = ['online', 'offline', 'editing', 'completed'] as const;

/**
 * GET /api/v2/p2p/advList: 90-day windows; the list key is advList or merchantList (the spec has both).
 * The live docs require `side` and `status` (the spec makes them optional filters), so every side and status
 * is a partition of its own, read with both parameters set: what the live service requires, in a form the
 * spec accepts. The live service caps a page at 20 (since 2024-08-28; the spec's default is 100): pages of 20,
 * so that a full page is recognised as one and the next is asked for (docs/platform.md, "P2P advertisements").
 */
export const p2pAdvertisements = defineStream({
  kind: 'paged',
  name: 'p2p_advertisements',
  path: '/api/v2/p2p/advList',
  partitions: SIDES.flatMap((side) => STATUSES.map((status) => ({ name: `${side}:${status}`, params: { side, status } }))),
  maxWindowDays: 90,
  pageLimit: 20,
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
  model: {
    name: 'p2p_advertisements',
    kind: 'table',
    description: 'P2P advertisements (GET /api/v2/p2p/advList), one row per advertisement: the last fetched of those read under each side and status (sql/models/p2p_advertisements.sql).',
    keyColumn: 'adv_id',
    columns: [
      accountColumn,
      text('adv_id', "The advertisement's id (`advId`)."),
      text('adv_no', 'Its number (`advNo`).'),
      text('side', 'buy or sell (`side`).'),
      text('coin', 'The coin traded (`coin`).'),
      text('fiat', 'The fiat currency (`fiat`).'),
      text('fiat_symbol', 'The fiat sign (`fiatSymbol`).'),
      amount('adv_size', 'The total quantity advertised (`advSize`).'),
      amount('size', 'The quantity left (`size`).'),
      amount('price', 'The price in the fiat (`price`).'),
      amount('min_trade_amount', 'The smallest trade (`minTradeAmount`).'),
      amount('max_trade_amount', 'The largest trade (`maxTradeAmount`).'),
      text('status', 'online, offline, editing or completed (`status`).'),
      text('hide', 'Whether it is hidden (`hide`).'),
      text('pay_duration', 'Minutes allowed to pay (`payDuration`).'),
      text('turnover_num', 'The total traded (`turnoverNum`).'),
      text('turnover_rate', 'The completion rate (`turnoverRate`).'),
      text('label', 'Its label (`label`); NULL when empty.'),
      instant('u_time', 'When it last changed (`uTime`, or `utime` as the docs\' example spells it).'),
      tsColumn('cTime'),
    ],
  },
});
