import { z } from 'zod';
import { idString, msString, optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, instant, text, tsColumn } from './table.js';
import { expression, field, time } from './source.js';
import { defineStream } from './stream.js';

const pageSchema = z
  .object({
    advList: z.array(z.unknown()).nullish(),
    merchantList: z.array(z.unknown()).nullish(),
    minAdvId: z.string().nullish(),
  })
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
  partitions: SIDES.flatMap((side) =>
    STATUSES.map((status) => ({ name: `${side}:${status}`, params: { side, status } })),
  ),
  maxWindowDays: 90,
  pageLimit: 20,
  ratePerSecond: 10,
  // docs/platform.md, "P2P advertisements"; the example spells the times ctime/utime, so either is read.
  recordChecks: [
    {
      check: (r) => r['cTime'] !== undefined || r['ctime'] !== undefined,
      message: 'neither cTime nor ctime',
      path: ['cTime'],
    },
  ],
  keyField: 'advId',
  optionalFields: ['cTime', 'ctime'],
  readPage: (data) => {
    const page = pageSchema.parse(data);
    const records = page?.advList ?? page?.merchantList ?? [];
    const minAdvId = page?.minAdvId ?? '';
    return { records, cursor: minAdvId === '' ? undefined : minAdvId };
  },
  table: {
    name: 'p2p_advertisements',
    kind: 'table',
    description:
      'P2P advertisements (GET /api/v2/p2p/advList), one row per advertisement: the last fetched of those read under each side and status (sql/models/p2p_advertisements.sql).',
    keyColumn: 'adv_id',
    // The advertisement's fields (docs/platform.md, "P2P advertisements"), each checked beside its column, or read as
    // served where no check is given. The amounts are read with lp_amount: checked like every other amount.
    columns: [
      accountColumn,
      text('adv_id', "The advertisement's id (`advId`).", field('advId', idString)),
      text('adv_no', 'Its number (`advNo`).', field('advNo', optionalText)),
      text('side', 'buy or sell (`side`).', field('side', optionalText)),
      text('coin', 'The coin traded (`coin`).', field('coin', optionalText)),
      text('fiat', 'The fiat currency (`fiat`).', field('fiat', optionalText)),
      text('fiat_symbol', 'The fiat sign (`fiatSymbol`).', field('fiatSymbol')),
      amount('adv_size', 'The total quantity advertised (`advSize`).', field('advSize', optionalDecimalString)),
      amount('size', 'The quantity left (`size`).', field('size', optionalDecimalString)),
      amount('price', 'The price in the fiat (`price`).', field('price', optionalDecimalString)),
      amount(
        'min_trade_amount',
        'The smallest trade (`minTradeAmount`).',
        field('minTradeAmount', optionalDecimalString),
      ),
      amount(
        'max_trade_amount',
        'The largest trade (`maxTradeAmount`).',
        field('maxTradeAmount', optionalDecimalString),
      ),
      text('status', 'online, offline, editing or completed (`status`).', field('status', optionalText)),
      text('hide', 'Whether it is hidden (`hide`).', field('hide')),
      text('pay_duration', 'Minutes allowed to pay (`payDuration`).', field('payDuration')),
      text('turnover_num', 'The total traded (`turnoverNum`).', field('turnoverNum')),
      text('turnover_rate', 'The completion rate (`turnoverRate`).', field('turnoverRate')),
      text('label', 'Its label (`label`); NULL when empty.', field('label', undefined, { emptyAsNull: true })),
      // The docs' field table spells the update time uTime, their example utime: either is read. DuckDB matches struct
      // fields without regard to case, so the second spelling is read from the JSON by its own path.
      instant(
        'u_time',
        "When it last changed (`uTime`, or `utime` as the docs' example spells it).",
        expression("lp_ms(coalesce(r.uTime, json_extract_string(payload, '$.utime')))", field('uTime')),
      ),
      tsColumn('cTime', time(field('cTime', msString.optional()), field('ctime', msString.optional()))),
    ],
  },
});
