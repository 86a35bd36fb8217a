import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { balancesAt, keyFrom, units8 } from '../../src/sim/data/accounts.js';
import { mulUnits } from '../../src/sim/data/decimal.js';
import { pricer, type PriceUnits } from '../../src/sim/data/markets.js';
import {
  CLASSIC_STREAMS,
  DAY_MS,
  PAGED_STREAMS,
  type Dataset,
  type Payload,
  type PagedStream,
} from '../../src/sim/data/types.js';
import { NETWORK_FEE_CAPS } from '../../src/sim/data/network-fees.js';
import { generateRetailDataset } from '../../src/sim/data/retail/dataset.js';

// The retail account of the CLI's default seed over 2025: generated once, bounded many ways (docs/simulator.md).
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const HOUR_MS = 3_600_000;
let data: Dataset;
const priceAt = pricer('retail');

beforeAll(() => {
  data = generateRetailDataset({ seed: 'retail', from: FROM, to: TO });
});

const records = (stream: PagedStream) => data.streams[stream].flatMap((p) => p.records);
const abs = (u: bigint) => (u < 0n ? -u : u);
/** What `units` of `asset` were worth in USDT at `at` (the close of the hour before), in units of 10^-8. */
function usdt(asset: string, units: bigint, at: number): bigint {
  if (asset === 'USDT') return units;
  const p = priceAt(`${asset}USDT`, at - 1);
  return mulUnits(units, 8, p.units, p.places, 8);
}
/** Every balance's worth at `at`, summed, per account type when `accountType` is given. */
function worth(at: number, accountType?: string): bigint {
  let total = 0n;
  for (const [k, units] of balancesAt(data.account, at)) {
    const key = keyFrom(k);
    if (accountType === undefined || key.accountType === accountType) total += usdt(key.asset, units, at);
  }
  return total;
}
const text = (units: bigint) => (Number(units / 1_000_000n) / 100).toFixed(2);
/** The candle of the hour holding `ts` as history-candles serves it: low and high (src/sim/endpoints/candles.ts). */
function candle(symbol: string, ts: number): [PriceUnits, PriceUnits] {
  const [close, open] = [priceAt(symbol, ts), priceAt(symbol, ts - HOUR_MS)];
  return close.units < open.units ? [close, open] : [open, close];
}

describe('the retail account', () => {
  it('was registered more than two years before its last year, with nothing, and never held less than nothing', () => {
    expect(new Date(data.openedAt).toISOString()).toBe('2022-10-04T16:44:21.277Z');
    expect(FROM - data.openedAt).toBeGreaterThanOrEqual(730 * DAY_MS);
    expect([...data.account.opening.values()].every((u) => u === 0n)).toBe(true);
    expect(Math.min(...PAGED_STREAMS.flatMap((s) => records(s).map((r) => r.ts)))).toBeGreaterThan(data.openedAt);
    const running = new Map<string, bigint>();
    let lowest = 0n;
    for (const m of data.account.movements) {
      const k = `${m.accountType}|${m.asset}|${m.symbol}`;
      const next = (running.get(k) ?? 0n) + m.units;
      running.set(k, next);
      if (next < lowest) lowest = next;
    }
    expect(lowest).toBe(0n);
  });

  it('holds tens of thousands of USDT at the start of its year, and within a factor of two of that at its end', () => {
    const [atFrom, atTo] = [worth(FROM), worth(TO)];
    expect([text(atFrom), text(atTo)]).toEqual(['69891.02', '83943.61']);
    expect(atFrom >= 10_000_00000000n && atFrom <= 1_000_000_00000000n).toBe(true);
    expect(atTo * 2n >= atFrom && atTo <= atFrom * 2n).toBe(true);
  });

  it('earns a few percent a year in earn, and is refunded less than it paid in fees', () => {
    // Interest of the year, at its worth when paid, against the average worth of earn at each day's start.
    const year = records('spot_tax_records').filter((r) => r.ts >= FROM && r.ts < TO);
    const interest = year
      .filter((r) => r.record['spotTaxType'] === 'Interest')
      .reduce((s, r) => s + usdt(String(r.record['coin']), units8(r.record['amount']), r.ts), 0n);
    let earn = 0n;
    for (let day = FROM; day < TO; day += DAY_MS) earn += worth(day, 'earn');
    const average = earn / 365n;
    expect([text(interest), text(average)]).toEqual(['359.79', '9804.09']);
    expect(interest * 10n <= average).toBe(true);
    const refunds = records('spot_tax_records')
      .filter((r) => r.record['spotTaxType'] === 'Trading fee rebate')
      .reduce((s, r) => s + units8(r.record['amount']), 0n);
    const spotFees = records('spot_tax_records')
      .filter((r) => r.record['spotTaxType'] === 'Transaction fee deduct')
      .reduce((s, r) => s + usdt(String(r.record['coin']), -units8(r.record['amount']), r.ts), 0n);
    const futuresFees = records('futures_fills').reduce(
      (s, r) => s - units8((r.record['feeDetail'] as Payload[])[0]?.['totalFee']),
      0n,
    );
    const marginFees = records('margin_records').reduce(
      (s, r) => s + usdt(String(r.record['coin']), -units8(r.record['fee']), r.ts),
      0n,
    );
    expect([text(refunds), text(spotFees), text(futuresFees), text(marginFees)]).toEqual([
      '69.41',
      '742.33',
      '676.41',
      '58.40',
    ]);
    expect(refunds * 10n <= spotFees + futuresFees + marginFees).toBe(true);
  });

  it('pays each withdrawal the network fee of its coin and chain, no more than the platform cites', () => {
    const paid = records('withdrawals').map(
      (r) => [`${String(r.record['coin'])}:${String(r.record['chain'])}`, -units8(r.record['fee'])] as const,
    );
    expect(paid.length).toBe(21);
    for (const [chain, fee] of paid) expect(fee <= (NETWORK_FEE_CAPS[chain] ?? -1n), chain).toBe(true);
    expect(new Set(paid.map(([chain, fee]) => `${chain} ${fee}`))).toEqual(
      new Set(['USDT:trc20 100000000', 'USDT:erc20 300000000', 'BTC:btc 50000']),
    );
    // Most succeed; one was rejected; the two of the last day are pending until the simulator has run a while.
    expect(
      records('withdrawals')
        .map((r) => `${String(r.before?.['status'] ?? '')}>${String(r.record['status'])}`)
        .sort()
        .join(' '),
    ).toBe(`${'>reject '}${'>success '.repeat(18)}pending>success pending>success`);
  });

  it('trades at prices inside the hour candle the simulator serves, sized from what it held', () => {
    const orders = new Map<string, Payload[]>();
    for (const r of records('spot_tax_records')) {
      if (['Buy', 'Sell', 'Exchange spending', 'Exchange income'].includes(String(r.record['spotTaxType'])))
        orders.set(String(r.record['bizOrderId']), [...(orders.get(String(r.record['bizOrderId'])) ?? []), r.record]);
    }
    expect(orders.size).toBe(323);
    for (const legs of orders.values()) {
      const coin = legs.find((l) => l['coin'] !== 'USDT') as Payload;
      const cash = legs.find((l) => l['coin'] === 'USDT') as Payload;
      const [low, high] = candle(`${String(coin['coin'])}USDT`, Number(coin['ts']));
      const [qty, value] = [abs(units8(coin['amount'])), abs(units8(cash['amount']))];
      // value = qty x price, rounded to 8 decimals: inside qty x low and qty x high, a unit either way.
      expect(
        value + 1n >= mulUnits(qty, 8, low.units, low.places, 8) &&
          value - 1n <= mulUnits(qty, 8, high.units, high.places, 8),
        String(coin['bizOrderId']),
      ).toBe(true);
    }
    const fills = records('futures_fills');
    expect(fills.length).toBe(510);
    for (const f of fills) {
      const [low, high] = candle(String(f.record['symbol']), f.ts);
      const price = units8(f.record['price']);
      const scaled = (u: bigint, places: number) => u * 10n ** BigInt(8 - places);
      expect(
        price >= scaled(low.units, low.places) && price <= scaled(high.units, high.places),
        String(f.record['tradeId']),
      ).toBe(true);
    }
  });

  it('has no futures record before its year: those streams are read for the year only', () => {
    expect(records('futures_fills').filter((r) => r.ts < FROM)).toEqual([]);
    expect(records('futures_tax_records').filter((r) => r.ts < FROM)).toEqual([]);
  });

  it('keeps its history modest and its year at the scale of the demo', () => {
    const counts = Object.fromEntries(
      CLASSIC_STREAMS.map((s) => [
        s,
        [records(s).filter((r) => r.ts < FROM).length, records(s).filter((r) => r.ts >= FROM).length],
      ]),
    );
    expect(counts).toEqual({
      margin_records: [45, 18],
      futures_fills: [0, 510],
      withdrawals: [12, 9],
      p2p_advertisements: [0, 5],
      deposits: [26, 12],
      futures_tax_records: [0, 416],
      spot_tax_records: [746, 674],
      p2p_tax_records: [22, 10],
    });
  });

  it('uses only types the type catalog knows', async () => {
    const catalog = new Set(
      (await readFile(new URL('../../sql/seeds/type_catalog.csv', import.meta.url), 'utf8'))
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').slice(0, 3).join(',')),
    );
    const typeField: Partial<Record<PagedStream, string>> = {
      margin_records: 'marginTaxType',
      futures_tax_records: 'futureTaxType',
      spot_tax_records: 'spotTaxType',
      p2p_tax_records: 'p2pTaxType',
      withdrawals: 'status',
      deposits: 'status',
    };
    const used = new Set<string>();
    for (const [stream, field] of Object.entries(typeField) as [PagedStream, string][])
      for (const r of records(stream)) used.add(`${stream},${field},${String(r.record[field])}`);
    for (const r of records('futures_fills'))
      for (const d of r.record['feeDetail'] as Payload[])
        used.add(`futures_fills,feeDetail.deduction,${String(d['deduction'])}`);
    expect([...used].filter((t) => !catalog.has(t))).toEqual([]);
    expect(used.size).toBe(31);
  });
});

describe('the retail account sold off (soldOff)', () => {
  it('moves BTC, ETH and SOL in its year, trades on no margin, and holds nothing but USDT at its end', () => {
    const sold = generateRetailDataset({ seed: 'retail', from: FROM, to: TO, soldOff: true });
    expect(sold.streams.margin_records.flatMap((p) => p.records)).toEqual([]);
    expect(
      [...new Set(sold.account.movements.filter((m) => m.ts >= FROM && m.ts < TO).map((m) => m.asset))].sort(),
    ).toEqual(['BTC', 'ETH', 'SOL', 'USDT']);
    const held = [...balancesAt(sold.account, TO)]
      .filter(([, units]) => units !== 0n)
      .map(([k]) => `${keyFrom(k).accountType} ${keyFrom(k).asset}`);
    expect(held.sort()).toEqual(['earn USDT', 'spot USDT', 'usdt_futures USDT']);
    // The sale: each coin converted whole half a day before the end, BTC redeemed from earn first.
    const last = (coin: string) =>
      sold.streams.spot_tax_records
        .flatMap((p) => p.records)
        .filter((r) => r.record['coin'] === coin)
        .sort((a, b) => a.ts - b.ts)
        .at(-1);
    expect(
      ['BTC', 'ETH', 'SOL'].map((coin) => [
        new Date(last(coin)?.ts ?? 0).toISOString(),
        last(coin)?.record['spotTaxType'],
      ]),
    ).toEqual([
      ['2025-12-31T12:00:01.000Z', 'Exchange spending'],
      ['2025-12-31T12:01:01.000Z', 'Exchange spending'],
      ['2025-12-31T12:02:01.000Z', 'Exchange spending'],
    ]);
  });
});
