import { formatUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/**
 * Every status the live service has been seen to write (docs/platform.md, "Withdrawals and deposits"), `fail` included.
 */
export const WITHDRAWAL_STATUSES = [
  'pending',
  'pending_review',
  'pending_fail',
  'pending_review_fail',
  'reject',
  'fail',
  'success',
] as const;
export const WITHDRAWAL_DESTS = ['on_chain', 'internal_transfer', 'inner_address_transfer'] as const;

const COINS = [
  { coin: 'USDT', chains: ['trc20', 'erc20', 'bep20'], min: 10, max: 50_000, fee: [1, 0] },
  { coin: 'BTC', chains: ['btc'], min: 0.001, max: 3, fee: [0.0002, 0.0005] },
  { coin: 'ETH', chains: ['erc20', 'arbitrumone'], min: 0.01, max: 40, fee: [0.001, 0.003] },
  { coin: 'USDC', chains: ['erc20', 'sol'], min: 10, max: 20_000, fee: [1, 2] },
] as const;

/** The statuses a withdrawal moves to while the simulator runs (it starts `pending`). */
const MOVING_TO = ['success', 'success', 'reject'] as const;

function address(rng: Rng, chain: string): string {
  if (chain === 'btc') return `bc1q${rng.hex(38)}`;
  if (chain === 'trc20') return `T${rng.hex(33)}`;
  if (chain === 'sol') return rng.hex(44);
  return `0x${rng.hex(40)}`;
}

function withdrawal(rng: Rng, ts: number, orderId: string, status: string): Payload {
  const spec = rng.pick(COINS);
  const dest = rng.weighted([
    ['on_chain', 80],
    ['internal_transfer', 15],
    ['inner_address_transfer', 5],
  ] as const);
  const chain = rng.pick(spec.chains);
  const onChain = dest === 'on_chain';
  const [feeMin, feeMax] = spec.fee;
  const fee = onChain ? -(feeMax === 0 ? BigInt(Math.round(feeMin * 1e8)) : randomUnits(rng, feeMin, feeMax, 8)) : 0n;
  const done = status === 'success' || status === 'reject' || status.endsWith('fail');
  return {
    orderId,
    tradeId: onChain ? `0x${rng.hex(64)}` : orderId,
    coin: spec.coin,
    clientOid: rng.chance(0.3) ? `lp${rng.hex(16)}` : '',
    type: 'withdraw',
    dest,
    size: formatUnits(randomUnits(rng, spec.min, spec.max, 8), 8),
    fee: formatUnits(fee, 8),
    status,
    fromAddress: onChain ? address(rng, chain) : '',
    toAddress: onChain ? address(rng, chain) : String(rng.int(1_000_000_000, 9_999_999_999)),
    chain: onChain ? chain : '',
    confirm: status === 'success' && onChain ? String(rng.int(12, 120)) : '0',
    tag: '',
    cTime: String(ts),
    uTime: String(done ? ts + rng.int(60_000, 3_600_000) : ts),
  };
}

/**
 * Withdrawal records: every status and dest, records on 90-day seams and the range ends, runs of 137 and
 * 100 in one millisecond, and three records in the last day of the range whose status moves from
 * `pending` to a final one while the simulator runs (`before` holds what is served until then).
 */
export function generateWithdrawals(options: GenerateOptions, rng: Rng): Partition[] {
  const { from, to } = options;
  const prng = rng.fork('withdrawals');
  const count = Math.max(40, Math.round(options.records / 20));
  const moving = MOVING_TO.map((_, i) => to - (5 - 2 * i) * 3_600_000 - 4_321);
  const times = [
    ...edgeTimes(from, to, [90 * DAY_MS], []),
    ...randomTimes(prng, count, from - MARGIN_BEYOND_MS, to + MARGIN_BEYOND_MS, []),
    ...run(anchor(from, to, 0.27), 137),
    ...run(anchor(from, to, 0.63), 100),
    ...moving,
  ];
  const forced = [...WITHDRAWAL_STATUSES];
  const records = buildRecords(times, 0, prng, (ts, orderId) => {
    const movingIndex = moving.indexOf(ts);
    if (movingIndex >= 0) {
      const record = withdrawal(prng, ts, orderId, MOVING_TO[movingIndex] as string);
      return { record, before: { ...record, status: 'pending', confirm: '0', uTime: String(ts) } };
    }
    const status =
      ts >= from && ts < to && forced.length > 0
        ? (forced.shift() as string)
        : prng.weighted([
            ['success', 80],
            ['pending', 2],
            ['pending_review', 2],
            ['pending_fail', 3],
            ['pending_review_fail', 3],
            ['reject', 5],
            ['fail', 5],
          ] as const);
    return { record: withdrawal(prng, ts, orderId, status) };
  });
  return [{ name: '', records }];
}
