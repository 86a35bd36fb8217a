import { advert, ADVERT_SIDES, ADVERT_STATUSES } from '../adverts.js';
import { formatUnits } from '../decimal.js';
import { DAY_MS, type Partition } from '../types.js';
import type { Rng } from '../rng.js';
import { buildRecords } from '../timeline.js';

/** The retail account's advertisements: what it offered, and how each ended. */
const ADS = [
  { side: 'sell', status: 'completed' },
  { side: 'buy', status: 'completed' },
  { side: 'sell', status: 'offline' },
  { side: 'buy', status: 'completed' },
  { side: 'sell', status: 'online' },
] as const;

/**
 * A handful of P2P advertisements of the retail account over `[from, to)`, one partition per side and status as
 * the stress set's (adverts.ts): USDT for EUR, 300 to 3,000 USDT at 0.86 to 0.97 EUR, the last still online.
 *
 * @example
 * const partitions = retailAdverts({ from, to }, rng);
 */
export function retailAdverts(range: { from: number; to: number }, rng: Rng): Partition[] {
  const span = range.to - range.from;
  const times = ADS.map(
    (_, i) =>
      range.from + Math.floor((span * (i + 0.5)) / ADS.length) + rng.int(-10, 10) * DAY_MS + rng.int(0, DAY_MS - 1),
  );
  const records = buildRecords(times, 0, rng, (ts, advId) => {
    const i = times.indexOf(ts);
    const ad = ADS[i] as (typeof ADS)[number];
    const advSize = BigInt(rng.int(300, 3_000)) * 100n;
    const filled = ad.status === 'completed' ? advSize : (advSize * BigInt(rng.int(0, 60))) / 100n;
    return {
      record: {
        ...advert(rng, ts, advId, ad),
        coin: 'USDT',
        fiat: 'EUR',
        fiatSymbol: '€',
        coinPrecision: '2',
        advSize: formatUnits(advSize, 2),
        size: formatUnits(filled, 2),
        price: formatUnits(BigInt(rng.int(860, 970)), 3),
        maxTradeAmount: formatUnits(advSize / 100n, 0),
        minTradeAmount: '50',
      },
    };
  });
  return ADVERT_SIDES.flatMap((side) =>
    ADVERT_STATUSES.map((status) => ({
      name: `${side}:${status}`,
      records: records.filter((r) => r.record['side'] === side && r.record['status'] === status),
    })),
  );
}
