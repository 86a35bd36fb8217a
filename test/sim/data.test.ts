import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, writeTruth } from '../../src/sim/data/dataset.js';
import { FILL_PRODUCT_TYPES } from '../../src/sim/data/fills.js';
import { MARGIN_TAX_TYPES, UNKNOWN_MARGIN_TAX_TYPE } from '../../src/sim/data/margin.js';
import {
  FUTURE_TAX_TYPES,
  P2P_TAX_TYPES,
  SPOT_TAX_TYPES,
  UNKNOWN_FUTURE_TAX_TYPE,
  UNKNOWN_P2P_TAX_TYPE,
  UNKNOWN_SPOT_TAX_TYPE,
} from '../../src/sim/data/tax-records.js';
import { CLASSIC_STREAMS, DAY_MS, PAGED_STREAMS, type Dataset, type SimRecord } from '../../src/sim/data/types.js';
import { WITHDRAWAL_DESTS, WITHDRAWAL_STATUSES } from '../../src/sim/data/withdrawals.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const options = { seed: 'data', from: FROM, to: TO, records: 2000, marginWindowDays: 366 };
let data: Dataset;
let dir: string;

beforeAll(async () => {
  data = generateDataset(options);
  dir = await mkdtemp(join(tmpdir(), 'lp-data-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const inRange = (r: SimRecord) => r.ts >= FROM && r.ts < TO;
const all = (stream: (typeof PAGED_STREAMS)[number]) => data.streams[stream].flatMap((p) => p.records);
const DECIMAL_FIELDS: Record<string, string[]> = {
  margin_records: ['amount', 'fee', 'total'],
  futures_fills: ['price', 'baseVolume', 'quoteVolume', 'profit'],
  withdrawals: ['size', 'fee'],
  p2p_advertisements: ['advSize', 'size', 'price'],
};

describe('generated data', () => {
  it('is the same bytes for the same seed, and differs for another seed', async () => {
    await writeTruth(data, join(dir, 'a.json'));
    await writeTruth(generateDataset(options), join(dir, 'b.json'));
    await writeTruth(generateDataset({ ...options, seed: 'other' }), join(dir, 'c.json'));
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => readFile(join(dir, `${n}.json`))));
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
    const truth = JSON.parse(a!.toString('utf8')) as Record<string, { partition: string; record: unknown }[]>;
    expect(Object.keys(truth)).toEqual([...PAGED_STREAMS, 'account_balances']);
    expect(truth['futures_fills']?.length).toBe(all('futures_fills').length);
    expect(truth['account_balances']?.map((b) => (b.record as { accountType: string }).accountType)).toEqual([
      'spot',
      'futures',
      'funding',
      'earn',
      'bots',
      'margin',
    ]);
  });

  it('orders every partition newest first with unique ids that grow with time', () => {
    for (const stream of PAGED_STREAMS) {
      const ids = new Set<string>();
      for (const partition of data.streams[stream]) {
        partition.records.forEach((r, i) => {
          ids.add(r.id);
          const next = partition.records[i + 1];
          if (next !== undefined) {
            expect(r.ts >= next.ts && BigInt(r.id) > BigInt(next.id), `${stream} ${r.id}`).toBe(true);
          }
        });
      }
      expect(ids.size, stream).toBe(all(stream).length);
    }
  });

  it('reaches a little beyond both ends and holds records at from-1, from, to-1 and to', () => {
    // A classic account's streams: it has no record of a unified account's (docs/unified-accounts.md).
    for (const stream of CLASSIC_STREAMS) {
      const times = new Set(all(stream).map((r) => r.ts));
      for (const t of [FROM - 1, FROM, TO - 1, TO]) expect(times.has(t), `${stream} ${t}`).toBe(true);
      expect(Math.min(...times)).toBeLessThan(FROM - DAY_MS);
      expect(Math.max(...times)).toBeGreaterThan(TO + DAY_MS);
    }
  });

  it('puts records on both sides of every window seam', () => {
    const seams = (days: number) =>
      Array.from({ length: Math.floor((TO - FROM - 1) / (days * DAY_MS)) }, (_, k) => FROM + (k + 1) * days * DAY_MS);
    const has = (stream: (typeof PAGED_STREAMS)[number], days: number) => {
      const times = new Set(all(stream).map((r) => r.ts));
      const gapFree = seams(days).filter((s) => times.has(s) || times.has(s - 1));
      return gapFree.every((s) => times.has(s) && times.has(s - 1)) && gapFree.length;
    };
    expect(has('margin_records', 30)).toBe(12);
    expect(has('withdrawals', 90)).toBe(4);
    expect(has('p2p_advertisements', 90)).toBe(4);
    // 52 weekly seams, less the two inside the 15-day gap.
    expect(has('futures_fills', 7)).toBe(50);
  });

  it('has runs sharing one millisecond longer than a page in every stream', () => {
    const longest = (stream: (typeof PAGED_STREAMS)[number]) =>
      Math.max(
        ...data.streams[stream].map((p) => {
          const counts = new Map<number, number>();
          for (const r of p.records) counts.set(r.ts, (counts.get(r.ts) ?? 0) + 1);
          return Math.max(...counts.values());
        }),
      );
    expect(longest('margin_records')).toBeGreaterThan(500);
    expect(longest('futures_fills')).toBeGreaterThan(100);
    expect(longest('withdrawals')).toBeGreaterThan(100);
    expect(longest('p2p_advertisements')).toBeGreaterThan(100);
  });

  it('leaves whole weekly fill windows empty', () => {
    for (const partition of data.streams.futures_fills) {
      const empty = Array.from({ length: 52 }, (_, k) => FROM + k * 7 * DAY_MS).filter(
        (a) => !partition.records.some((r) => r.ts >= a && r.ts < a + 7 * DAY_MS),
      );
      expect(empty.length, partition.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('holds every marginTaxType and one unknown type inside the range, in both margin types', () => {
    const types = (name: string) =>
      new Set(
        data.streams.margin_records
          .find((p) => p.name === name)!
          .records.filter(inRange)
          .map((r) => r.record['marginTaxType']),
      );
    expect([...types('crossed')].sort()).toEqual([...MARGIN_TAX_TYPES, UNKNOWN_MARGIN_TAX_TYPE].sort());
    expect([...types('isolated')].sort()).toEqual([...MARGIN_TAX_TYPES].sort());
  });

  it('records a margin trade as the platform does: deal_in and deal_out of one symbol in one millisecond, the fee on the leg received', () => {
    for (const partition of data.streams.margin_records) {
      const deals = partition.records.filter((r) => String(r.record['marginTaxType']).startsWith('deal_'));
      const byTrade = new Map<string, string[]>();
      for (const r of deals)
        byTrade.set(`${r.ts}/${String(r.record['symbol'])}`, [
          ...(byTrade.get(`${r.ts}/${String(r.record['symbol'])}`) ?? []),
          String(r.record['marginTaxType']),
        ]);
      expect(
        [...byTrade.values()].every((types) => types.sort().join() === 'deal_in,deal_out'),
        partition.name,
      ).toBe(true);
      expect(deals.filter((r) => r.record['marginTaxType'] === 'deal_out').every((r) => r.record['fee'] === '0')).toBe(
        true,
      );
      expect(
        deals.some((r) => r.record['marginTaxType'] === 'deal_in' && String(r.record['fee']).startsWith('-')),
      ).toBe(true);
    }
  });

  it('uses the real futures, spot and P2P vocabularies, and one undocumented type of each, inside the range', () => {
    const types = (stream: 'futures_tax_records' | 'spot_tax_records' | 'p2p_tax_records', field: string) =>
      new Set(
        all(stream)
          .filter(inRange)
          .map((r) => String(r.record[field])),
      );
    expect([...types('futures_tax_records', 'futureTaxType')].sort()).toEqual(
      [...FUTURE_TAX_TYPES.map(([t]) => t), UNKNOWN_FUTURE_TAX_TYPE].sort(),
    );
    expect([...types('spot_tax_records', 'spotTaxType')].sort()).toEqual(
      [...SPOT_TAX_TYPES, UNKNOWN_SPOT_TAX_TYPE].sort(),
    );
    expect([...types('p2p_tax_records', 'p2pTaxType')].sort()).toEqual([...P2P_TAX_TYPES, UNKNOWN_P2P_TAX_TYPE].sort());
    // Both shapes of a P2P record: the amount in balance (newest docs) or in total (earlier docs, SDK types).
    const p2p = all('p2p_tax_records').map((r) => r.record);
    expect(
      p2p.some((r) => 'balance' in r && !('total' in r)) && p2p.some((r) => 'total' in r && !('balance' in r)),
    ).toBe(true);
    // A spot order: its legs and its fee share one bizOrderId and one millisecond.
    const orders = new Map<string, string[]>();
    for (const r of all('spot_tax_records'))
      if (['Buy', 'Sell', 'Transaction fee deduct'].includes(String(r.record['spotTaxType'])))
        orders.set(String(r.record['bizOrderId']), [...(orders.get(String(r.record['bizOrderId'])) ?? []), `${r.ts}`]);
    expect([...orders.values()].every((times) => times.length === 3 && new Set(times).size === 1)).toBe(true);
  });

  it('writes fee entries as real fills have them: totalDeductionFee "0", null or "", BGB deductions equal to totalFee of either sign', () => {
    const entries = all('futures_fills').flatMap(
      (r) => (r.record['feeDetail'] as Record<string, unknown>[] | null) ?? [],
    );
    expect(new Set(entries.filter((e) => e['deduction'] === 'no').map((e) => e['totalDeductionFee']))).toEqual(
      new Set(['0', null, '']),
    );
    const bgb = entries.filter((e) => e['deduction'] === 'yes');
    expect(bgb.every((e) => e['feeCoin'] === 'BGB' && e['totalDeductionFee'] === e['totalFee'])).toBe(true);
    expect(
      bgb.some((e) => String(e['totalFee']).startsWith('-')) && bgb.some((e) => !String(e['totalFee']).startsWith('-')),
    ).toBe(true);
    expect(all('futures_fills').some((r) => r.record['symbol'] === 'BTCUSDZ25' && !('marginCoin' in r.record))).toBe(
      true,
    );
  });

  it('holds every withdrawal status and dest inside the range', () => {
    const rows = all('withdrawals')
      .filter(inRange)
      .map((r) => r.record);
    expect(new Set(rows.map((r) => r['status']))).toEqual(new Set(WITHDRAWAL_STATUSES));
    expect(new Set(rows.map((r) => r['dest']))).toEqual(new Set(WITHDRAWAL_DESTS));
    expect(rows.some((r) => String(r['fee']).startsWith('-'))).toBe(true);
    expect(
      rows.filter((r) => r['dest'] === 'on_chain').every((r) => /^0x[0-9a-f]{64}$/.test(String(r['tradeId']))),
    ).toBe(true);
    expect(rows.filter((r) => r['dest'] !== 'on_chain').every((r) => r['tradeId'] === r['orderId'])).toBe(true);
  });

  it('has fills with and without marginCoin in each product type, profit only on closing fills, paid and rebated fees', () => {
    for (const productType of FILL_PRODUCT_TYPES) {
      const fills = data.streams.futures_fills.find((p) => p.name === productType)!.records.map((r) => r.record);
      expect(fills.some((f) => 'marginCoin' in f) && fills.some((f) => !('marginCoin' in f)), productType).toBe(true);
      expect(fills.filter((f) => f['tradeSide'] === 'open').every((f) => f['profit'] === '0')).toBe(true);
      expect(fills.some((f) => f['profit'] !== '0')).toBe(true);
      const fees = fills.flatMap((f) => (f['feeDetail'] as { totalFee: string }[] | null) ?? []).map((d) => d.totalFee);
      expect(
        fees.some((fee) => fee.startsWith('-')) && fees.some((fee) => !fee.startsWith('-') && fee !== '0.00000000'),
        productType,
      ).toBe(true);
    }
  });

  it('writes amounts as decimal strings with at most 8 decimals', () => {
    for (const stream of PAGED_STREAMS) {
      for (const r of all(stream)) {
        for (const field of DECIMAL_FIELDS[stream] ?? [])
          expect(String(r.record[field]), `${stream}.${field}`).toMatch(/^-?\d+(\.\d{1,8})?$/);
      }
    }
  });

  it('moves three withdrawals of the last day from pending to final', () => {
    const movers = all('withdrawals').filter((r) => r.before !== undefined);
    expect(movers.map((r) => [r.before?.['status'], r.record['status']])).toEqual([
      ['pending', 'reject'],
      ['pending', 'success'],
      ['pending', 'success'],
    ]);
    expect(movers.every((r) => r.ts >= TO - DAY_MS && r.ts < TO)).toBe(true);
  });
});
