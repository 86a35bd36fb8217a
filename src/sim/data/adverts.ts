import { formatUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

const FIATS = [
  ['EUR', '€', 0.85, 0.98],
  ['USD', '$', 0.99, 1.02],
  ['BRL', 'R$', 4.9, 6.2],
  ['TRY', '₺', 28, 42],
] as const;

/** The values of side and status: each pair is a partition of the stream (the live docs require both). */
export const ADVERT_SIDES = ['buy', 'sell'] as const;
export const ADVERT_STATUSES = ['online', 'offline', 'editing', 'completed'] as const;

/**
 * One of the account's P2P advertisements in the shape of the docs' example, its fiat, coin, sizes and price drawn
 * (any of them may be set after; the retail account's are in EUR), `forced` its side and status when given.
 *
 * @example
 * const ad = advert(rng, ts, advId, { side: 'sell', status: 'completed' });
 */
export function advert(rng: Rng, ts: number, advId: string, forced?: { side: string; status: string }): Payload {
  const [fiat, fiatSymbol, low, high] = rng.pick(FIATS);
  const coin = rng.weighted([
    ['USDT', 80],
    ['BTC', 10],
    ['USDC', 10],
  ] as const);
  const btc = coin === 'BTC';
  const advSize = randomUnits(rng, btc ? 0.01 : 100, btc ? 2 : 50_000, btc ? 6 : 2);
  const filled = (advSize * BigInt(rng.int(0, 100))) / 100n;
  const price = btc ? randomUnits(rng, low * 40_000, high * 100_000, 2) : randomUnits(rng, low, high, 3);
  const drawn = rng.weighted([
    ['completed', 40],
    ['offline', 30],
    ['online', 25],
    ['editing', 5],
  ] as const);
  const side = rng.pick(ADVERT_SIDES);
  const created = String(ts);
  const updated = String(ts + rng.int(0, 7 * DAY_MS));
  // The live docs' field table spells the times cTime/uTime, their example ctime/utime: serve both.
  const times = rng.chance(0.5) ? { cTime: created, uTime: updated } : { ctime: created, utime: updated };
  return {
    advNo: String(BigInt(advId) / 1000n),
    advId,
    side: forced?.side ?? side,
    advSize: formatUnits(advSize, btc ? 6 : 2),
    size: formatUnits(filled, btc ? 6 : 2),
    coin,
    price: formatUnits(price, btc ? 2 : 3),
    coinPrecision: btc ? '6' : '2',
    fiat,
    fiatPrecision: '2',
    fiatSymbol,
    status: forced?.status ?? drawn,
    hide: rng.chance(0.1) ? 'yes' : 'no',
    maxTradeAmount: formatUnits(randomUnits(rng, 1_000, 20_000, 0), 0),
    minTradeAmount: formatUnits(randomUnits(rng, 10, 500, 0), 0),
    payDuration: String(rng.pick([15, 30, 45])),
    turnoverNum: String(rng.int(0, 900)),
    turnoverRate: formatUnits(BigInt(rng.int(8000, 10000)), 4),
    label: rng.chance(0.3) ? 'fast release' : '',
    ...times,
    // Drawn in the payload's field order: the same seed gives the same adverts.
    userLimitList: userLimitList(rng),
    paymentMethodList: paymentMethodList(rng),
    merchantCertifiedResult: [],
  };
}

/** An advert's limits on who may order. */
function userLimitList(rng: Rng): Payload[] {
  return [
    {
      minCompleteNum: '0',
      maxCompleteNum: '0',
      placeOrderNum: String(rng.int(1, 5)),
      allowMerchantPlace: rng.pick(['yes', 'no']),
      completeRate30d: '0',
      country: '',
    },
  ];
}

/** An advert's payment method. */
function paymentMethodList(rng: Rng): Payload[] {
  return [
    {
      paymentMethod: rng.pick(['SEPA', 'Bank transfer', 'PIX', 'Wise']),
      paymentId: String(rng.int(1, 60)),
      paymentInfo: [{ name: 'Account', required: true, type: 'number' }],
    },
  ];
}

/**
 * The account's own P2P advertisements, one partition per side and status (`buy:online`, ...): 90-day seams,
 * range ends, and runs of 137 and 100 in one millisecond, each inside one partition, longer than the live
 * page of 20. Ids grow with time across the whole stream, so they do inside every partition.
 */
export function generateAdverts(options: GenerateOptions, rng: Rng): Partition[] {
  const { from, to } = options;
  const prng = rng.fork('p2p_advertisements');
  const runs = [
    { ts: anchor(from, to, 0.18), length: 137, side: 'sell', status: 'completed' },
    { ts: anchor(from, to, 0.52), length: 100, side: 'buy', status: 'online' },
  ];
  const times = [
    ...edgeTimes(from, to, [90 * DAY_MS], []),
    ...randomTimes(
      prng,
      Math.max(20, Math.round(options.records / 30)),
      from - MARGIN_BEYOND_MS,
      to + MARGIN_BEYOND_MS,
      [],
    ),
    ...runs.flatMap((r) => run(r.ts, r.length)),
  ];
  const records = buildRecords(times, 0, prng, (ts, advId) => ({
    record: advert(
      prng,
      ts,
      advId,
      runs.find((r) => r.ts === ts),
    ),
  }));
  return ADVERT_SIDES.flatMap((side) =>
    ADVERT_STATUSES.map((status) => ({
      name: `${side}:${status}`,
      records: records.filter((r) => r.record['side'] === side && r.record['status'] === status),
    })),
  );
}
