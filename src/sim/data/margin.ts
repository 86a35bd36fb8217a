import { formatUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './model.js';
import type { Rng } from './rng.js';
import { anchor, buildRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/** Every marginTaxType of the spec, plus one the spec does not list, which an extractor must keep. */
export const MARGIN_TAX_TYPES = [
  'transfer_in',
  'transfer_out',
  'borrow',
  'repay',
  'liquidation_fee',
  'compensate',
  'deal_in',
  'deal_out',
  'system_fee_in',
  'interest_repay',
  'confiscated',
  'exchange_in',
  'exchange_out',
] as const;
export const UNKNOWN_MARGIN_TAX_TYPE = 'special_transfer_out';

const PAIRS = [
  ['BTC', 'USDT', 0.0001, 0.8],
  ['ETH', 'USDT', 0.001, 12],
  ['SOL', 'USDT', 0.01, 150],
  ['XRP', 'USDT', 1, 9000],
] as const;

const WEIGHTS: readonly (readonly [string, number])[] = [
  ['deal_in', 22],
  ['deal_out', 22],
  ['system_fee_in', 12],
  ['borrow', 8],
  ['repay', 8],
  ['interest_repay', 10],
  ['transfer_in', 6],
  ['transfer_out', 5],
  ['exchange_in', 2],
  ['exchange_out', 2],
  ['liquidation_fee', 1],
  ['compensate', 1],
  ['confiscated', 1],
];

/** Types that move coin out of the account; the live service writes some of these amounts negative. */
const OUTFLOW = new Set(['transfer_out', 'repay', 'interest_repay', 'liquidation_fee', 'deal_out', 'system_fee_in', 'confiscated', 'exchange_out']);

function marginRecord(rng: Rng, ts: number, id: string, type: string, isolated: boolean, balance: { units: bigint }): Payload {
  const [base, quote, min, max] = rng.pick(PAIRS);
  const coin = rng.pick([base, quote]);
  const isQuote = coin === quote;
  const places = 8;
  const amountUnits =
    type === 'interest_repay' || type === 'system_fee_in' || type === 'liquidation_fee'
      ? randomUnits(rng, 0.00000001, isQuote ? 3 : min * 10, places)
      : randomUnits(rng, isQuote ? 1 : min, isQuote ? 25_000 : max, places);
  const outflow = OUTFLOW.has(type);
  // The live service has been seen writing outflows both signed and unsigned: generate both.
  const signed = outflow && rng.chance(0.5) ? -amountUnits : amountUnits;
  const feeUnits = type === 'deal_in' || type === 'deal_out' ? -randomUnits(rng, 0.00000001, 0.05, places) : 0n;
  balance.units += outflow ? -amountUnits : amountUnits;
  if (balance.units < 0n) balance.units = -balance.units;
  return {
    id,
    coin,
    symbol: isolated || type.startsWith('deal') ? `${base}${quote}` : '',
    marginTaxType: type,
    amount: formatUnits(signed, places),
    fee: feeUnits === 0n ? '0' : formatUnits(feeUnits, places),
    total: formatUnits(balance.units, places),
    ts: String(ts),
  };
}

/**
 * Margin transaction records for both margin types: every marginTaxType and one unknown type, records on
 * the seams of the 366-day, 30-day and configured windows, and in crossed a run longer than a page (500)
 * and a run of exactly one page inside one millisecond.
 */
export function generateMarginRecords(options: GenerateOptions, rng: Rng): Partition[] {
  const { from, to } = options;
  const windows = [366 * DAY_MS, 30 * DAY_MS, options.marginWindowDays * DAY_MS];
  const count = Math.max(40, Math.round(options.records / 2));
  const start = from - MARGIN_BEYOND_MS;
  const end = to + MARGIN_BEYOND_MS;
  return (['crossed', 'isolated'] as const).map((name, index) => {
    const prng = rng.fork(name);
    const share = name === 'crossed' ? 0.7 : 0.3;
    const times = [
      ...edgeTimes(from, to, windows, []),
      ...randomTimes(prng, Math.round(count * share), start, end, []),
      ...(name === 'crossed' ? [...run(anchor(from, to, 0.31), 537), ...run(anchor(from, to, 0.77), 500)] : []),
    ];
    // The first records inside the range carry every type once, so even a tiny dataset holds them all.
    const forced = [...MARGIN_TAX_TYPES, ...(name === 'crossed' ? [UNKNOWN_MARGIN_TAX_TYPE] : [])];
    const balance = { units: 1_000_000_000_000n };
    const records = buildRecords(times, index, prng, (ts, id) => {
      const type = ts >= from && ts < to && forced.length > 0 ? (forced.shift() as string) : prng.weighted(WEIGHTS);
      return { record: marginRecord(prng, ts, id, type, name === 'isolated', balance) };
    });
    return { name, records };
  });
}
