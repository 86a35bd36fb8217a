import { formatUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './model.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

const FIATS = [
  ['EUR', '€', 0.85, 0.98],
  ['USD', '$', 0.99, 1.02],
  ['BRL', 'R$', 4.9, 6.2],
  ['TRY', '₺', 28, 42],
] as const;

function advert(rng: Rng, ts: number, advId: string): Payload {
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
  const status = rng.weighted([
    ['completed', 40],
    ['offline', 30],
    ['online', 25],
    ['editing', 5],
  ] as const);
  return {
    advNo: String(BigInt(advId) / 1000n),
    advId,
    side: rng.pick(['buy', 'sell']),
    advSize: formatUnits(advSize, btc ? 6 : 2),
    size: formatUnits(filled, btc ? 6 : 2),
    coin,
    price: formatUnits(price, btc ? 2 : 3),
    coinPrecision: btc ? '6' : '2',
    fiat,
    fiatPrecision: '2',
    fiatSymbol,
    status,
    hide: rng.chance(0.1) ? 'yes' : 'no',
    maxTradeAmount: formatUnits(randomUnits(rng, 1_000, 20_000, 0), 0),
    minTradeAmount: formatUnits(randomUnits(rng, 10, 500, 0), 0),
    payDuration: String(rng.pick([15, 30, 45])),
    turnoverNum: String(rng.int(0, 900)),
    turnoverRate: formatUnits(BigInt(rng.int(8000, 10000)), 4),
    label: rng.chance(0.3) ? 'fast release' : '',
    cTime: String(ts),
    uTime: String(ts + rng.int(0, 7 * DAY_MS)),
    userLimitList: [
      {
        minCompleteNum: '0',
        maxCompleteNum: '0',
        placeOrderNum: String(rng.int(1, 5)),
        allowMerchantPlace: rng.pick(['yes', 'no']),
        completeRate30d: '0',
        country: '',
      },
    ],
    paymentMethodList: [
      {
        paymentMethod: rng.pick(['SEPA', 'Bank transfer', 'PIX', 'Wise']),
        paymentId: String(rng.int(1, 60)),
        paymentInfo: [{ name: 'Account', required: true, type: 'number' }],
      },
    ],
    merchantCertifiedResult: [],
  };
}

/** The account's own P2P advertisements: 90-day seams, range ends, runs of 137 and 100 in one millisecond. */
export function generateAdverts(options: GenerateOptions, rng: Rng): Partition[] {
  const { from, to } = options;
  const prng = rng.fork('p2p_advertisements');
  const times = [
    ...edgeTimes(from, to, [90 * DAY_MS], []),
    ...randomTimes(prng, Math.max(20, Math.round(options.records / 30)), from - MARGIN_BEYOND_MS, to + MARGIN_BEYOND_MS, []),
    ...run(anchor(from, to, 0.18), 137),
    ...run(anchor(from, to, 0.52), 100),
  ];
  return [{ name: '', records: buildRecords(times, 0, prng, (ts, advId) => ({ record: advert(prng, ts, advId) })) }];
}
