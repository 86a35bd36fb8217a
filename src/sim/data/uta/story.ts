import { priceInCandle } from '../candle-price.js';
import { formatUnits, mulUnits } from '../decimal.js';
import { DAY_MS, type Payload } from '../types.js';
import { amountBetween, held, shareOf, type RetailContext } from '../retail/context.js';
import { RETAIL_COINS } from '../retail/spot.js';
import { copyProfitShare, copyTransfer, fundingEvent, transferBetween, unifiedEvent } from './book.js';
import { daytime, every, HOUR_MS, MINUTE_MS, type Step } from '../retail/schedule.js';

/** The spot fee: 0.1% of what was received, in that coin. */
const FEE_PER_MILLE = 1n;
/** The futures fee: 0.06% of the notional, a taker's. */
const FUTURES_FEE_PER_100K = 60n;

/**
 * A deposit into the funding account (its record: groupType deposit) and, `later` ms after, all of it moved into the
 * unified account, where the account trades.
 */
function depositAndMove(c: RetailContext, ts: number, coin: string, units: bigint, later: number): Step[] {
  return [
    { ts, run: () => fundingEvent(c, ts, { groupType: 'deposit', type: 'DEPOSIT', coin, units }) },
    { ts: ts + later, run: () => transferBetween(c, ts + later, coin, units, 'to_unified') },
  ];
}

/**
 * A spot order in the unified account against USDT at a price inside the hour's candle: ORDER_DEALT_IN (what was
 * received), ORDER_PLF_FEE_OUT (0.1% of it, in that coin) and ORDER_DEALT_FROZEN_OUT (what was given), in one
 * millisecond and in that order, as the docs' example lists them (uta/tax/Get-Tax-Records.md).
 */
function spotOrder(c: RetailContext, ts: number): void {
  const coin = c.rng.weighted([
    ['BTC', 5],
    ['ETH', 3],
    ['SOL', 2],
  ] as const);
  const price = priceInCandle(c.priceAt, `${coin}USDT`, ts, c.rng.next());
  const places = RETAIL_COINS[coin] as number;
  const step = 10n ** BigInt(8 - places);
  const usdt = held(c, 'unified', 'USDT');
  const coinValue = mulUnits(held(c, 'unified', coin), 8, price.units, price.places, 8);
  const side = coinValue < 150_00000000n ? 'buy' : usdt < 400_00000000n ? 'sell' : c.rng.chance(0.5) ? 'buy' : 'sell';
  let qty: bigint;
  if (side === 'buy') {
    const spend = shareOf(c.rng, usdt, 0.05, 0.25);
    qty = (spend * 10n ** BigInt(price.places)) / price.units;
    qty -= qty % step;
  } else {
    qty = shareOf(c.rng, held(c, 'unified', coin), 0.1, 0.4, places);
  }
  const value = mulUnits(qty, 8, price.units, price.places, 8);
  if (value < 10_00000000n || (side === 'buy' && value > usdt)) return;
  const [got, gotUnits, gave, gaveUnits] = side === 'buy' ? [coin, qty, 'USDT', value] : ['USDT', value, coin, qty];
  const fee = (gotUnits * FEE_PER_MILLE) / 1000n;
  unifiedEvent(c, ts, 'SPOT', [
    { type: 'ORDER_DEALT_IN', coin: got, units: gotUnits },
    { type: 'ORDER_PLF_FEE_OUT', coin: got, units: -fee },
    { type: 'ORDER_DEALT_FROZEN_OUT', coin: gave, units: -gaveUnits },
  ]);
}

/**
 * A USDT-margined position in the unified account: OPEN_LONG or OPEN_SHORT (amount 0, its fee), one to three funding
 * fees while it is open (CONTRACT_MAIN_SETTLE_FEE_USER_IN or _OUT), and the close (amount the profit or loss, its fee),
 * as the classic future records of the same names show them
 * (test/fixtures/real/future-record--brunel-tradefetcher-real.json).
 */
function futuresPosition(c: RetailContext, open: number): Step[] {
  const long = c.rng.chance(0.6);
  const hours = c.rng.int(6, 72);
  const close = open + hours * HOUR_MS + c.rng.int(0, 59) * MINUTE_MS;
  let notional = 0n;
  const steps: Step[] = [
    {
      ts: open,
      run: () => {
        notional = shareOf(c.rng, held(c, 'unified', 'USDT'), 0.2, 0.5, 2) * BigInt(c.rng.int(1, 3));
        if (notional < 50_00000000n) return;
        unifiedEvent(c, open, 'USDT-FUTURES', [
          {
            type: long ? 'OPEN_LONG' : 'OPEN_SHORT',
            coin: 'USDT',
            units: 0n,
            fee: -((notional * FUTURES_FEE_PER_100K) / 100_000n),
          },
        ]);
      },
    },
  ];
  for (let k = 1, funding = open + 8 * HOUR_MS; funding < close && k <= 3; k++, funding += 8 * HOUR_MS) {
    const at = funding;
    steps.push({
      ts: at,
      run: () => {
        if (notional === 0n) return;
        const units = (notional * BigInt(c.rng.int(1, 15))) / 100_000n;
        const paid = c.rng.chance(0.6);
        unifiedEvent(c, at, 'USDT-FUTURES', [
          {
            type: paid ? 'CONTRACT_MAIN_SETTLE_FEE_USER_OUT' : 'CONTRACT_MAIN_SETTLE_FEE_USER_IN',
            coin: 'USDT',
            units: paid ? -units : units,
          },
        ]);
      },
    });
  }
  steps.push({
    ts: close,
    run: () => {
      if (notional === 0n) return;
      // A profit or loss of -3% to +4% of the notional, in cents.
      const pnl = ((notional * BigInt(c.rng.int(-300, 400))) / 10_000n / 1_000_000n) * 1_000_000n;
      unifiedEvent(c, close, 'USDT-FUTURES', [
        {
          type: long ? 'CLOSE_LONG' : 'CLOSE_SHORT',
          coin: 'USDT',
          units: pnl,
          fee: -((notional * FUTURES_FEE_PER_100K) / 100_000n),
        },
      ]);
    },
  });
  return steps;
}

/** A part of what the unified account holds of SOL turned into USDT as small assets (SMALL_ASSET_*). */
function smallAssets(c: RetailContext, ts: number): void {
  const sol = shareOf(c.rng, held(c, 'unified', 'SOL'), 0.02, 0.05, 2);
  if (sol <= 0n) return;
  const price = priceInCandle(c.priceAt, 'SOLUSDT', ts, c.rng.next());
  const usdt = mulUnits(sol, 8, price.units, price.places, 8);
  if (usdt <= 0n) return;
  unifiedEvent(c, ts, 'SPOT', [
    { type: 'SMALL_ASSET_SOURCE_TOKEN_USER_OUT', coin: 'SOL', units: -sol },
    { type: 'SMALL_ASSET_TARGET_TOKEN_USER_IN', coin: 'USDT', units: usdt },
  ]);
}

/** USDT moved from the unified account to the funding account and withdrawn from there, its network fee on top. */
function withdrawUsdt(c: RetailContext, ts: number): Step[] {
  const fee = 1_00000000n;
  let size = 0n;
  return [
    {
      ts,
      run: () => {
        size = shareOf(c.rng, held(c, 'unified', 'USDT'), 0.05, 0.15, 2);
        if (size < 100_00000000n) size = 0n;
        else transferBetween(c, ts, 'USDT', size + fee, 'to_funding');
      },
    },
    {
      ts: ts + 20 * MINUTE_MS,
      run: () => {
        if (size > 0n)
          fundingEvent(c, ts + 20 * MINUTE_MS, {
            groupType: 'withdraw',
            type: 'WITHDRAW',
            coin: 'USDT',
            units: -size,
            fee: -fee,
          });
      },
    },
  ];
}

/** The trading of a copy-trading project's account, which no record shows: the truth counts it (dataset.ts). */
export interface CopyTrading {
  project: string;
  /** Each settlement's profit or loss of the period, at its time. */
  results: { ts: number; units: bigint }[];
}

/**
 * Copying a lead trader in a project of its own (docs/unified-accounts.md, "Copy trading"): USDT deposited into the
 * funding account and moved into the project's copy account the same day, a settlement every one to two weeks (the
 * period's profit or loss, a tenth of a profit paid to the lead trader), and about half of what the copy account
 * holds moved back to the funding account, then into the unified account.
 */
function copySteps(c: RetailContext, range: { openedAt: number; to: number }, copy: CopyTrading): Step[] {
  const { openedAt, to } = range;
  const start = daytime(c.rng, openedAt + c.rng.int(25, 40) * DAY_MS);
  const stake = amountBetween(c.rng, 1_000, 3_000, 2);
  const back = daytime(c.rng, openedAt + Math.floor((to - openedAt) * 0.8));
  const steps: Step[] = [
    {
      ts: start,
      run: () => fundingEvent(c, start, { groupType: 'deposit', type: 'DEPOSIT', coin: 'USDT', units: stake }),
    },
    { ts: start + HOUR_MS, run: () => copyTransfer(c, start + HOUR_MS, copy.project, stake, 'to_copy') },
  ];
  for (const ts of every(c.rng, start + DAY_MS, back - DAY_MS, 7, 14)) {
    steps.push({
      ts,
      run: () => {
        const held = held_(c, copy.project);
        // A period's result of -4% to +8% of what the account holds, in cents.
        const units = ((held * BigInt(c.rng.int(-400, 800))) / 10_000n / 1_000_000n) * 1_000_000n;
        copy.results.push({ ts, units });
        copyProfitShare(c, ts, copy.project, units);
      },
    });
  }
  steps.push({
    ts: back,
    run: () => {
      const units = shareOf(c.rng, held_(c, copy.project), 0.4, 0.6, 2);
      copyTransfer(c, back, copy.project, units, 'to_funding');
      transferBetween(c, back + 30 * MINUTE_MS, 'USDT', units, 'to_unified');
    },
  });
  return steps;
}

/**
 * A crypto loan taken and still open at the end (docs/completeness.md, "Open loans"): USDT deposited into the funding
 * account as collateral, and ETH borrowed against it an hour later (a funding record of groupType loan: the borrowed
 * coin comes in; the collateral stays the account's, pledged). The loan's own record is what the loan endpoints serve.
 */
function loanSteps(c: RetailContext, range: { openedAt: number; to: number }, loans: Payload[]): Step[] {
  const at = daytime(c.rng, range.openedAt + Math.floor((range.to - range.openedAt) * 0.6));
  const pledge = amountBetween(c.rng, 2_000, 4_000, 2);
  return [
    { ts: at, run: () => fundingEvent(c, at, { groupType: 'deposit', type: 'DEPOSIT', coin: 'USDT', units: pledge }) },
    {
      ts: at + HOUR_MS,
      run: () => {
        const t = at + HOUR_MS;
        const price = priceInCandle(c.priceAt, 'ETHUSDT', t, 0.5);
        // Borrowed at 65% of the collateral's value, in ETH to 4 decimals.
        const eth = ((((pledge * 65n) / 100n) * 10n ** BigInt(price.places)) / price.units / 10_000n) * 10_000n;
        fundingEvent(c, t, { groupType: 'loan', type: 'LOAN_BORROW', coin: 'ETH', units: eth });
        const text = (u: bigint) => formatUnits(u, 8);
        loans.push({
          orderId: String(t).slice(0, 10) + String(c.rng.int(100_000_000, 999_999_999)),
          loanCoin: 'ETH',
          loanAmount: text(eth),
          interestAmount: text(eth / 2000n),
          hourInterestRate: '0.000229',
          pledgeCoin: 'USDT',
          pledgeAmount: text(pledge),
          pledgeRate: '65',
          supRate: '75',
          forceRate: '83',
          borrowTime: String(t),
          expireTime: String(t + 30 * DAY_MS),
        });
      },
    },
  ];
}

/** What the copy account of `project` holds of USDT now. */
const held_ = (c: RetailContext, project: string): bigint => held(c, 'copy', 'USDT', project);

/**
 * The unified account's life from its opening to `to` (docs/simulator.md, "A unified account"): money deposited into
 * its funding account and moved into the unified account, spot trades there every few days, a USDT-margined position
 * now and then with its funding fees, small assets turned into USDT once, USDT withdrawn through the funding
 * account twice, a lead trader copied in a copy-trading account (copySteps), and a crypto loan still open at the end
 * (loanSteps). Every step is sized from what the account holds at its instant.
 *
 * @example
 * runUnifiedStory(c, { openedAt, to }, { project: '1188234567', results: [] }, []);
 */
export function runUnifiedStory(
  c: RetailContext,
  range: { openedAt: number; to: number },
  copy: CopyTrading,
  loans: Payload[],
): void {
  const { openedAt, to } = range;
  const steps: Step[] = [
    ...copySteps(c, range, copy),
    ...loanSteps(c, range, loans),
    ...depositAndMove(
      c,
      openedAt + c.rng.int(30, 90) * MINUTE_MS,
      'USDT',
      amountBetween(c.rng, 6_000, 12_000, 2),
      c.rng.int(10, 60) * MINUTE_MS,
    ),
    ...depositAndMove(
      c,
      daytime(c.rng, openedAt + c.rng.int(1, 3) * DAY_MS),
      'BTC',
      amountBetween(c.rng, 0.05, 0.15, 4),
      20 * MINUTE_MS,
    ),
    ...every(c.rng, openedAt + 20 * DAY_MS, to - 10 * DAY_MS, 25, 50).flatMap((ts) =>
      depositAndMove(c, ts, 'USDT', amountBetween(c.rng, 300, 2_000, 2), c.rng.int(10, 60) * MINUTE_MS),
    ),
    ...every(c.rng, openedAt + 4 * DAY_MS, to - DAY_MS, 2, 4).map((ts) => ({ ts, run: () => spotOrder(c, ts) })),
    ...every(c.rng, openedAt + 6 * DAY_MS, to - 5 * DAY_MS, 5, 12).flatMap((ts) => futuresPosition(c, ts)),
    ...[0.5, 0.85].flatMap((share) => withdrawUsdt(c, daytime(c.rng, openedAt + Math.floor((to - openedAt) * share)))),
  ];
  const dust = daytime(c.rng, openedAt + Math.floor((to - openedAt) * 0.7));
  steps.push({ ts: dust, run: () => smallAssets(c, dust) });
  for (const step of steps.filter((s) => s.ts > openedAt && s.ts < to).sort((a, b) => a.ts - b.ts)) step.run();
}
