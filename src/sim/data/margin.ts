import { formatUnits, mulUnits, randomUnits } from './decimal.js';
import { DAY_MS, type GenerateOptions, type Partition, type Payload } from './types.js';
import type { PriceUnits } from './markets.js';
import type { Rng } from './rng.js';
import { anchor, buildEventRecords, edgeTimes, MARGIN_BEYOND_MS, randomTimes, run } from './timeline.js';

/**
 * Every marginTaxType the docs have listed (system_fee_in only in their 2023 version), plus one they do not,
 * which an extractor must keep and the ledger must book for review (docs/platform.md, "Tax records").
 */
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
export const UNKNOWN_MARGIN_TAX_TYPE = 'special_transfer_out' as const;

/** The pairs traded on margin: base, quote, and the range of a trade's base quantity. */
const PAIRS = [
  ['BTC', 'USDT', 0.0001, 0.8],
  ['ETH', 'USDT', 0.001, 12],
  ['SOL', 'USDT', 0.01, 150],
  ['XRP', 'USDT', 1, 9000],
] as const;

/**
 * What happens at one time: a margin buy or sell (deal_in and deal_out in one millisecond, the fee on the leg
 * received; now and then a buy with a system_fee_in beside them), a conversion (exchange_out and exchange_in),
 * or one record of a single type.
 */
type MarginEvent =
  'buy' | 'buy_system_fee' | 'sell' | 'convert' | (typeof SINGLE_TYPES)[number] | typeof UNKNOWN_MARGIN_TAX_TYPE;
const SINGLE_TYPES = [
  'borrow',
  'repay',
  'interest_repay',
  'transfer_in',
  'transfer_out',
  'liquidation_fee',
  'compensate',
  'confiscated',
] as const;
const WEIGHTS: readonly (readonly [MarginEvent, number])[] = [
  ['buy', 13],
  ['buy_system_fee', 1],
  ['sell', 14],
  ['convert', 2],
  ['borrow', 8],
  ['repay', 8],
  ['interest_repay', 10],
  ['transfer_in', 6],
  ['transfer_out', 5],
  ['liquidation_fee', 1],
  ['compensate', 1],
  ['confiscated', 1],
];
const SINGLE_WEIGHTS = WEIGHTS.filter(([e]) => (SINGLE_TYPES as readonly string[]).includes(e));

/** Types that move coin out of the account; the live service has been seen writing these both signed and not. */
export const OUTFLOW: ReadonlySet<string> = new Set([
  'transfer_out',
  'repay',
  'interest_repay',
  'liquidation_fee',
  'deal_out',
  'system_fee_in',
  'confiscated',
  'exchange_out',
  UNKNOWN_MARGIN_TAX_TYPE,
]);
const PLACES = 8;

interface Leg {
  type: string;
  coin: string;
  units: bigint;
  feeUnits: bigint;
  symbol: string;
}

/** The records of one event, oldest first; trades at the hour's close (`price`). */
function legsOf(rng: Rng, event: MarginEvent, isolated: boolean, price: (symbol: string) => PriceUnits): Leg[] {
  const [base, quote, qMin, qMax] = rng.pick(PAIRS);
  const symbol = `${base}${quote}`;
  if (event === 'buy' || event === 'buy_system_fee' || event === 'sell') {
    const qty = randomUnits(rng, qMin, qMax, PLACES);
    const close = price(symbol);
    const cost = mulUnits(qty, PLACES, close.units, close.places, PLACES) || 1n;
    const buy = event !== 'sell';
    const received = buy ? { coin: base, units: qty } : { coin: quote, units: cost };
    const given = buy ? { coin: quote, units: cost } : { coin: base, units: qty };
    // 0.1% of what was received, charged in that coin.
    const fee = received.units / 1000n;
    const legs: Leg[] = [
      { type: 'deal_in', ...received, feeUnits: rng.chance(0.8) ? -fee : 0n, symbol },
      { type: 'deal_out', ...given, feeUnits: 0n, symbol },
    ];
    // The 2023 docs list system_fee_in; it comes without a symbol in crossed margin.
    if (event === 'buy_system_fee')
      legs.push({
        type: 'system_fee_in',
        coin: received.coin,
        units: fee === 0n ? 1n : fee,
        feeUnits: 0n,
        symbol: isolated ? symbol : '',
      });
    return legs;
  }
  if (event === 'convert') {
    const spent = randomUnits(rng, 1, 2_000, PLACES);
    const close = price(symbol);
    const received = (spent * 10n ** BigInt(close.places)) / close.units || 1n;
    return [
      { type: 'exchange_out', coin: quote, units: spent, feeUnits: 0n, symbol: isolated ? symbol : '' },
      { type: 'exchange_in', coin: base, units: received, feeUnits: 0n, symbol: isolated ? symbol : '' },
    ];
  }
  const coin = rng.pick([base, quote]);
  const small = event === 'interest_repay' || event === 'liquidation_fee';
  const units = small
    ? randomUnits(rng, 0.00000001, coin === quote ? 3 : qMin * 10, PLACES)
    : randomUnits(rng, coin === quote ? 1 : qMin, coin === quote ? 25_000 : qMax, PLACES);
  return [{ type: event, coin, units, feeUnits: 0n, symbol: isolated ? symbol : '' }];
}

/** Every event kind once inside the range, then by weight; runs inside one millisecond are single records. */
function eventChooser(
  options: GenerateOptions,
  rng: Rng,
  crossed: boolean,
): (ts: number, inRun: boolean) => MarginEvent {
  const forced: MarginEvent[] = [
    'buy',
    'buy_system_fee',
    'sell',
    'convert',
    ...SINGLE_TYPES,
    ...(crossed ? [UNKNOWN_MARGIN_TAX_TYPE] : []),
  ];
  return (ts, inRun) => {
    if (!inRun && ts >= options.from && ts < options.to && forced.length > 0) return forced.shift() as MarginEvent;
    if (inRun) return rng.weighted(SINGLE_WEIGHTS);
    // The undocumented type now and then, so the review path is exercised at every scale.
    if (crossed && rng.chance(0.004)) return UNKNOWN_MARGIN_TAX_TYPE;
    return rng.weighted(WEIGHTS);
  };
}

/**
 * Margin transaction records for both margin types: trades as the platform records them (deal_in and deal_out in
 * one millisecond), conversions, every other type and one unknown type; records on the seams of the 366-day,
 * 30-day and configured windows; in crossed a run longer than a page (500) and a run of exactly one page inside
 * one millisecond.
 */
export function generateMarginRecords(
  options: GenerateOptions,
  rng: Rng,
  priceAt: (symbol: string, ts: number) => PriceUnits,
): Partition[] {
  const { from, to } = options;
  const windows = [366 * DAY_MS, 30 * DAY_MS, options.marginWindowDays * DAY_MS];
  const count = Math.max(40, Math.round(options.records / 4));
  const start = from - MARGIN_BEYOND_MS;
  const end = to + MARGIN_BEYOND_MS;
  return (['crossed', 'isolated'] as const).map((name, index) => {
    const prng = rng.fork(name);
    const crossed = name === 'crossed';
    const runs = crossed ? [...run(anchor(from, to, 0.31), 537), ...run(anchor(from, to, 0.77), 500)] : [];
    const runTimes = new Set(runs);
    const choose = eventChooser(options, prng, crossed);
    const times = [
      ...edgeTimes(from, to, windows, []),
      ...randomTimes(prng, Math.round(count * (crossed ? 0.7 : 0.3)), start, end, []),
      ...runs,
    ].sort((a, b) => a - b);
    const events = times.map((ts) => ({
      ts,
      legs: legsOf(prng, choose(ts, runTimes.has(ts)), !crossed, (symbol) => priceAt(symbol, ts)),
    }));
    const records = buildEventRecords(events, index, prng, (event, legIndex, ts, id) => {
      const leg = event.legs[legIndex] as Leg;
      const outflow = OUTFLOW.has(leg.type);
      // total, the running balance, is written from the whole account afterwards (accounts.ts).
      const record: Payload = {
        id,
        coin: leg.coin,
        symbol: leg.symbol,
        marginTaxType: leg.type,
        // The live service has been seen writing outflows both signed and unsigned: generate both.
        amount: formatUnits(outflow && prng.chance(0.5) ? -leg.units : leg.units, PLACES),
        fee: leg.feeUnits === 0n ? '0' : formatUnits(leg.feeUnits, PLACES),
        total: '',
        ts: String(ts),
      };
      return { record };
    });
    return { name, records };
  });
}
