import { DAY_MS } from '../types.js';
import type { Rng } from '../rng.js';
import { amountBetween, held, shareOf, type RetailContext } from './context.js';
import { futuresPosition, futuresTransfer } from './futures.js';
import { marginEpisode, type MarginEpisode } from './margin.js';
import { convert, convertAll, earnMove, payInterest, rebate, RETAIL_COINS, spotOrder } from './spot.js';
import { deposit, p2pBuy, p2pSell, withdraw } from './wallet.js';
import { daytime, every as everyOf, HOUR_MS, MINUTE_MS, type Step } from './schedule.js';

/** The retail account's habits start at once or later: the first time 0 to `high` days after `start`. */
const every = (rng: Rng, start: number, end: number, low: number, high: number): number[] =>
  everyOf(rng, start, end, low, high, 0);

/** The coin a trade is in: bitcoin most often. */
const pickCoin = (rng: Rng): string =>
  rng.weighted([
    ['BTC', 5],
    ['ETH', 3],
    ['SOL', 2],
  ] as const);

/**
 * A spot order that keeps the account sensible: buys when it holds little of the coin, sells when it holds little
 * USDT, else either. Returns the fee's value in USDT.
 */
function tradeSomething(c: RetailContext, ts: number): bigint {
  const coin = pickCoin(c.rng);
  const price = c.priceAt(`${coin}USDT`, ts);
  const coinValue = (held(c, 'spot', coin) * price.units) / 10n ** BigInt(price.places);
  const usdt = held(c, 'spot', 'USDT');
  const side = coinValue < 200_00000000n ? 'buy' : usdt < 500_00000000n ? 'sell' : c.rng.chance(0.5) ? 'buy' : 'sell';
  return spotOrder(c, ts, { side, coin, low: 0.05, high: 0.3 });
}

/** Steps that fund the account from its registration and keep money coming in and going out until `to`. */
function walletSteps(c: RetailContext, range: { openedAt: number; from: number; to: number }): Step[] {
  const { openedAt, from, to } = range;
  const usdtChain = () => (c.rng.chance(0.85) ? 'trc20' : 'erc20');
  const steps: Step[] = [];
  const at = (ts: number, run: (ts: number) => void) => steps.push({ ts, run: () => run(ts) });
  at(openedAt + c.rng.int(20, 90) * MINUTE_MS + c.rng.int(0, 59_999), (ts) =>
    deposit(c, ts, 'USDT', amountBetween(c.rng, 8_000, 15_000, 2), 'trc20'),
  );
  at(daytime(c.rng, openedAt + c.rng.int(1, 3) * DAY_MS), (ts) =>
    deposit(c, ts, 'BTC', amountBetween(c.rng, 0.1, 0.25, 4), 'btc'),
  );
  at(daytime(c.rng, openedAt + c.rng.int(2, 6) * DAY_MS), (ts) =>
    p2pBuy(c, ts, amountBetween(c.rng, 1_000, 2_500, 2), c.rng.int(10, 40) * MINUTE_MS),
  );
  for (const ts of every(c.rng, openedAt + 20 * DAY_MS, to - 10 * DAY_MS, 25, 50))
    at(ts, (t) => deposit(c, t, 'USDT', amountBetween(c.rng, 500, 3_000, 2), usdtChain()));
  for (const ts of every(c.rng, openedAt + 120 * DAY_MS, to - 10 * DAY_MS, 150, 250))
    at(ts, (t) => deposit(c, t, 'BTC', amountBetween(c.rng, 0.03, 0.12, 4), 'btc'));
  for (const ts of every(c.rng, openedAt + 45 * DAY_MS, to - 10 * DAY_MS, 60, 120))
    at(ts, (t) => p2pBuy(c, t, amountBetween(c.rng, 300, 2_000, 2), c.rng.int(10, 40) * MINUTE_MS));
  for (const day of [openedAt + Math.floor((from - openedAt) * 0.6), from + Math.floor((to - from) * 0.4)]) {
    at(daytime(c.rng, day), (t) =>
      p2pSell(c, t, shareOf(c.rng, held(c, 'spot', 'USDT'), 0.03, 0.08, 2), c.rng.int(5, 30) * MINUTE_MS),
    );
  }
  withdrawalSteps(c, range, { at, usdtChain });
  return steps;
}

/**
 * walletSteps' withdrawals, planned after its deposits with the same `at`: USDT now and then, BTC twice, one the
 * platform rejected, and two still pending at the range's end.
 */
function withdrawalSteps(
  c: RetailContext,
  range: { openedAt: number; from: number; to: number },
  plan: { at: (ts: number, run: (ts: number) => void) => unknown; usdtChain: () => string },
): void {
  const { openedAt, from, to } = range;
  const { at, usdtChain } = plan;
  for (const ts of every(c.rng, openedAt + 60 * DAY_MS, to - 10 * DAY_MS, 45, 100)) {
    at(ts, (t) => {
      const chain = usdtChain();
      withdraw(c, t, {
        coin: 'USDT',
        chain,
        size: shareOf(c.rng, held(c, 'spot', 'USDT'), 0.05, 0.2, 2),
        status: 'success',
      });
    });
  }
  for (const share of [0.45, 0.8]) {
    at(daytime(c.rng, openedAt + Math.floor((to - openedAt) * share)), (t) =>
      withdraw(c, t, {
        coin: 'BTC',
        chain: 'btc',
        size: shareOf(c.rng, held(c, 'spot', 'BTC'), 0.1, 0.3, 4),
        status: 'success',
      }),
    );
  }
  // One withdrawal the platform rejected, and two on the range's last day still pending when the simulator starts.
  at(daytime(c.rng, from + Math.floor((to - from) * 0.55)), (t) =>
    withdraw(c, t, { coin: 'USDT', chain: 'trc20', size: amountBetween(c.rng, 200, 800, 2), status: 'reject' }),
  );
  for (const hours of [5, 3]) {
    at(to - hours * HOUR_MS - 4_321, (t) =>
      withdraw(c, t, {
        coin: 'USDT',
        chain: 'trc20',
        size: shareOf(c.rng, held(c, 'spot', 'USDT'), 0.02, 0.08, 2),
        status: 'success',
        pendingFirst: true,
      }),
    );
  }
}

/** Spot trading, conversions, earn and its interest, and the monthly fee rebates, from the registration to `to`. */
function spotSteps(c: RetailContext, range: { openedAt: number; from: number; to: number }): Step[] {
  const { openedAt, from, to } = range;
  const steps: Step[] = [];
  const at = (ts: number, run: (ts: number) => void) => steps.push({ ts, run: () => run(ts) });
  // Fees paid since the last rebate, valued in USDT.
  let fees = 0n;
  const trade = (t: number) => {
    fees += tradeSomething(c, t);
  };
  for (const ts of every(c.rng, openedAt + 3 * DAY_MS, from, 3, 10)) at(ts, trade);
  for (const ts of every(c.rng, from, to - DAY_MS, 1, 3)) at(ts, trade);
  for (const ts of every(c.rng, openedAt + 15 * DAY_MS, to - DAY_MS, 30, 70)) {
    at(ts, (t) => {
      const coin = pickCoin(c.rng);
      if (c.rng.chance(0.5)) convert(c, t, { from: 'USDT', to: coin, low: 0.02, high: 0.15 });
      else convert(c, t, { from: coin, to: 'USDT', low: 0.05, high: 0.3 });
    });
  }
  at(daytime(c.rng, openedAt + c.rng.int(7, 12) * DAY_MS), (t) =>
    earnMove(c, t, 'USDT', shareOf(c.rng, held(c, 'spot', 'USDT'), 0.3, 0.5, 2), 'subscribe'),
  );
  at(daytime(c.rng, openedAt + c.rng.int(30, 40) * DAY_MS), (t) =>
    earnMove(c, t, 'BTC', shareOf(c.rng, held(c, 'spot', 'BTC'), 0.3, 0.6, 4), 'subscribe'),
  );
  at(daytime(c.rng, openedAt + Math.floor((from - openedAt) * 0.7)), (t) =>
    earnMove(c, t, 'BTC', shareOf(c.rng, held(c, 'earn', 'BTC'), 0.3, 0.6, 4), 'redeem'),
  );
  for (const ts of every(c.rng, openedAt + 60 * DAY_MS, to - DAY_MS, 60, 120)) {
    at(ts, (t) => {
      const [spotUsdt, earnUsdt] = [held(c, 'spot', 'USDT'), held(c, 'earn', 'USDT')];
      if (earnUsdt * 10n > (spotUsdt + earnUsdt) * 6n || c.rng.chance(0.35))
        earnMove(c, t, 'USDT', shareOf(c.rng, earnUsdt, 0.2, 0.6, 2), 'redeem');
      else earnMove(c, t, 'USDT', shareOf(c.rng, spotUsdt, 0.1, 0.3, 2), 'subscribe');
    });
  }
  // The savings' interest, paid weekly for the week before: 4.5% a year on USDT, 1% on BTC.
  for (let week = Math.ceil(openedAt / (7 * DAY_MS)) * 7 * DAY_MS + 8 * DAY_MS; week < to; week += 7 * DAY_MS) {
    const ts = week + HOUR_MS + c.rng.int(0, 59) * MINUTE_MS + c.rng.int(0, 59_999);
    at(ts, (t) => {
      payInterest(c, t, 'USDT', 450, 7);
      payInterest(c, t + 1_000, 'BTC', 100, 7);
    });
  }
  // A tenth of each month's spot fees paid back on the 1st of the next.
  for (let month = nextMonth(openedAt); month < to; month = nextMonth(month)) {
    at(month + 3 * HOUR_MS + c.rng.int(0, 59) * MINUTE_MS + c.rng.int(0, 59_999), (t) => {
      rebate(c, t, fees / 10n);
      fees = 0n;
    });
  }
  return steps;
}

function nextMonth(ts: number): number {
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** A handful of leveraged positions on margin: three crossed and two isolated before `from`, one of each in it. */
function marginSteps(c: RetailContext, range: { openedAt: number; from: number; to: number }): Step[] {
  const { openedAt, from, to } = range;
  const history = from - openedAt;
  const plans: [MarginEpisode['marginType'], string, number][] = [
    ['crossed', 'BTC', openedAt + Math.floor(history * 0.12)],
    ['isolated', 'ETH', openedAt + Math.floor(history * 0.28)],
    ['crossed', 'BTC', openedAt + Math.floor(history * 0.45)],
    ['isolated', 'ETH', openedAt + Math.floor(history * 0.62)],
    ['crossed', 'BTC', openedAt + Math.floor(history * 0.8)],
    ['crossed', 'ETH', from + Math.floor((to - from) * 0.2)],
    ['isolated', 'SOL', from + Math.floor((to - from) * 0.65)],
  ];
  return plans.flatMap(([marginType, coin, day]) => {
    const open = daytime(c.rng, day);
    const close = daytime(c.rng, open + c.rng.int(3, 20) * DAY_MS);
    const [opening, closing] = marginEpisode(c, { marginType, coin, open, close });
    return [
      { ts: open, run: opening },
      { ts: close, run: closing },
    ];
  });
}

/**
 * The range's futures: USDT moved from spot to USDT-FUTURES a few days into it, positions one after another until
 * two days before its end, after each the margin brought back toward where it started (the excess over one and a
 * half times back to spot, a top-up from spot below half), and most of what is left moved back to spot at the end.
 */
function futuresSteps(c: RetailContext, range: { from: number; to: number }): Step[] {
  const { from, to } = range;
  const steps: Step[] = [];
  let base = 0n;
  const start = daytime(c.rng, from + c.rng.int(1, 4) * DAY_MS);
  steps.push({
    ts: start,
    run: () => {
      base = shareOf(c.rng, held(c, 'spot', 'USDT'), 0.35, 0.5, 2);
      futuresTransfer(c, start, base);
    },
  });
  for (let open = start + c.rng.int(6, 30) * HOUR_MS; ;) {
    const hours = c.rng.weighted([
      [c.rng.int(1, 8), 40],
      [c.rng.int(8, 36), 40],
      [c.rng.int(36, 96), 20],
    ] as const);
    const close = open + hours * HOUR_MS + c.rng.int(0, 59) * MINUTE_MS;
    if (close > to - 2 * DAY_MS) break;
    const position = {
      symbol: c.rng.weighted([
        ['BTCUSDT', 6],
        ['ETHUSDT', 3],
        ['SOLUSDT', 1],
      ] as const),
      long: c.rng.chance(0.6),
      open,
      close,
      leveragePermille: c.rng.int(500, 2_500),
    };
    steps.push({ ts: open, run: () => futuresPosition(c, position) });
    const rebalance = close + c.rng.int(1, 3) * HOUR_MS;
    steps.push({
      ts: rebalance,
      run: () => {
        const margin = held(c, 'usdt_futures', 'USDT');
        if (margin * 2n > base * 3n) futuresTransfer(c, rebalance, -(((margin - base) / 1_000_000n) * 1_000_000n));
        else if (margin * 2n < base)
          futuresTransfer(
            c,
            rebalance,
            ((base - margin < held(c, 'spot', 'USDT') / 3n ? base - margin : held(c, 'spot', 'USDT') / 3n) /
              1_000_000n) *
              1_000_000n,
          );
      },
    });
    open = rebalance + c.rng.int(3, 72) * HOUR_MS;
  }
  // Most of what is left goes back to spot before the year ends.
  const back = daytime(c.rng, to - 2 * DAY_MS + 12 * HOUR_MS);
  steps.push({
    ts: back,
    run: () => futuresTransfer(c, back, -shareOf(c.rng, held(c, 'usdt_futures', 'USDT'), 0.4, 0.8, 2)),
  });
  return steps;
}

/**
 * Half a day before `to`, after every trade of the year: each coin earn holds redeemed, then each coin spot holds
 * converted to USDT whole (convertAll). Nothing but USDT is held at the end.
 */
function sellOffSteps(c: RetailContext, to: number): Step[] {
  const ts = to - 12 * HOUR_MS;
  return Object.keys(RETAIL_COINS).map((coin, i) => ({
    ts: ts + i * MINUTE_MS,
    run: () => {
      earnMove(c, ts + i * MINUTE_MS, coin, held(c, 'earn', coin), 'redeem');
      convertAll(c, ts + i * MINUTE_MS + 1_000, coin);
    },
  }));
}

/**
 * The retail account's life, from its registration to `to`, written into `c.book` step by step in the order of
 * time: every step sized from what the account holds at its instant. Before `from` it only deposits, withdraws,
 * buys on P2P, trades spot and on margin and saves in earn (the streams a reader follows back to the registration);
 * from `from` it trades futures too. `soldOff`: no margin (whose endpoints list a coin even at nothing), and every
 * coin sold before `to` (sellOffSteps), so the year's coins are not held at its end.
 *
 * @example
 * runRetailStory(c, { openedAt, from, to });
 */
export function runRetailStory(
  c: RetailContext,
  range: { openedAt: number; from: number; to: number; soldOff?: boolean },
): void {
  // In this order: each draws from the story's generator as it plans its steps.
  const steps = [
    ...walletSteps(c, range),
    ...spotSteps(c, range),
    ...(range.soldOff === true ? sellOffSteps(c, range.to) : marginSteps(c, range)),
    ...futuresSteps(c, range),
  ]
    .filter((s) => s.ts > range.openedAt && s.ts < range.to)
    .sort((a, b) => a.ts - b.ts);
  for (const step of steps) step.run();
}
