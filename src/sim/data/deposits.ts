import { formatUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/** Deposit statuses of the live service (docs/platform.md, "Withdrawals and deposits"). */
export const DEPOSIT_STATUSES = ['pending', 'fail', 'success'] as const;

const COINS = [
  { coin: 'USDT', chains: ['trc20', 'erc20'], min: 10, max: 80_000 },
  { coin: 'BTC', chains: ['btc'], min: 0.0005, max: 4 },
  { coin: 'ETH', chains: ['erc20'], min: 0.01, max: 60 },
] as const;

function deposit(rng: Rng, ts: number, orderId: string, status: string): Payload {
  const spec = rng.pick(COINS);
  const onChain = rng.chance(0.85);
  return {
    orderId,
    tradeId: onChain ? `0x${rng.hex(64)}` : orderId,
    coin: spec.coin,
    type: 'deposit',
    size: formatUnits(randomUnits(rng, spec.min, spec.max, 8), 8),
    status,
    toAddress: onChain ? `0x${rng.hex(40)}` : '',
    dest: onChain ? 'on_chain' : 'internal_transfer',
    chain: onChain ? rng.pick(spec.chains) : '',
    fromAddress: onChain ? `0x${rng.hex(40)}` : String(rng.int(1_000_000_000, 9_999_999_999)),
    cTime: String(ts),
    uTime: String(status === 'pending' ? ts : ts + rng.int(60_000, 1_800_000)),
  };
}

/**
 * Deposit records (GET /api/v2/spot/wallet/deposit-records): 90-day seams, range ends, a run of 137 in one millisecond.
 */
export function generateDeposits(options: GenerateOptions, rng: Rng): Partition[] {
  const { from, to } = options;
  const prng = rng.fork('deposits');
  const times = [
    ...edgeTimes(from, to, [90 * DAY_MS], []),
    ...randomTimes(
      prng,
      Math.max(30, Math.round(options.records / 25)),
      from - MARGIN_BEYOND_MS,
      to + MARGIN_BEYOND_MS,
      [],
    ),
    ...run(anchor(from, to, 0.47), 137),
  ];
  const forced = [...DEPOSIT_STATUSES];
  const records = buildRecords(times, 0, prng, (ts, orderId) => {
    const status =
      ts >= from && ts < to && forced.length > 0
        ? (forced.shift() as string)
        : prng.weighted([
            ['success', 94],
            ['pending', 3],
            ['fail', 3],
          ] as const);
    return { record: deposit(prng, ts, orderId, status) };
  });
  return [{ name: '', records }];
}
