import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { STREAMS } from '../../src/streams/index.js';
import { SCHEMAS_BEFORE } from './schemas-before.js';

/**
 * Each stream's record schema is made from its columns (src/streams/source.ts). It must accept and reject exactly what
 * the schema written by hand did (test/streams/schemas-before.ts), with the same messages: over every published
 * response of test/fixtures/real/, and over each of its records with each known field taken out or changed.
 */
const BEFORE: Readonly<Record<string, z.ZodObject>> = {
  margin_records: SCHEMAS_BEFORE.marginRecordSchema,
  futures_fills: SCHEMAS_BEFORE.futuresFillSchema,
  withdrawals: SCHEMAS_BEFORE.withdrawalSchema,
  p2p_advertisements: SCHEMAS_BEFORE.advertisementSchema,
  deposits: SCHEMAS_BEFORE.depositSchema,
  futures_tax_records: SCHEMAS_BEFORE.futureTaxRecordSchema,
  spot_tax_records: SCHEMAS_BEFORE.spotTaxRecordSchema,
  p2p_tax_records: SCHEMAS_BEFORE.p2pTaxRecordSchema,
  uta_tax_records: SCHEMAS_BEFORE.utaTaxRecordSchema,
  uta_financial_records: SCHEMAS_BEFORE.utaFinancialRecordSchema,
  copy_transfers: SCHEMAS_BEFORE.copyTransferSchema,
  copy_profit_shares: SCHEMAS_BEFORE.copyProfitShareSchema,
  lead_trader_profits: SCHEMAS_BEFORE.leadTraderProfitSchema,
  account_balances: SCHEMAS_BEFORE.balanceSchema,
  asset_balances: SCHEMAS_BEFORE.assetBalanceSchema,
  loans: SCHEMAS_BEFORE.loanSchema,
};

/** The stream of each published response, by the start of its file's name. */
const FIXTURE_STREAMS: readonly (readonly [string, string])[] = [
  ['margin-record--', 'margin_records'],
  ['fill-history--', 'futures_fills'],
  ['withdrawal-records--', 'withdrawals'],
  ['advList--', 'p2p_advertisements'],
  ['deposit-records--', 'deposits'],
  ['future-record--', 'futures_tax_records'],
  ['spot-record--', 'spot_tax_records'],
  ['p2p-record--', 'p2p_tax_records'],
  ['uta-tax-records--', 'uta_tax_records'],
  ['uta-financial-records--', 'uta_financial_records'],
  ['lead-trader-profits--', 'lead_trader_profits'],
  ['all-account-balance--', 'account_balances'],
  ['loan-orders--', 'loans'],
  ['-assets--', 'asset_balances'],
  ['mix-accounts--', 'asset_balances'],
];

const FIXTURES = join(import.meta.dirname, '../fixtures/real');

/** The records of one published answer's `data`: a list, or the list its page holds, or the one object. */
function recordsOf(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  if (data === null || typeof data !== 'object') return [];
  for (const list of ['list', 'fillList', 'advList', 'merchantList', 'profitList', 'assets']) {
    const value = (data as Record<string, unknown>)[list];
    if (Array.isArray(value)) return value as Record<string, unknown>[];
  }
  return [data as Record<string, unknown>];
}

/** Every published record of each stream. */
function publishedRecords(): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const file of readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const stream = FIXTURE_STREAMS.find(
      ([start]) => file.startsWith(start) || (start.startsWith('-') && file.includes(start)),
    )?.[1];
    if (stream === undefined) continue;
    // Two of ccxt's are the answer's data alone.
    const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as {
      response?: { data: unknown };
      data?: unknown;
    };
    out.set(stream, [...(out.get(stream) ?? []), ...recordsOf(fixture.response?.data ?? fixture.data)]);
  }
  return out;
}

/** What a schema makes of a record: the record it passes, or its issues, each as the quarantine writes it. */
function verdict(schema: z.ZodObject, record: unknown): { data: unknown } | { issues: string[] } {
  const parsed = schema.safeParse(record);
  return parsed.success
    ? { data: parsed.data }
    : { issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`) };
}

/** The record with each known field in turn taken out, null, empty, not a number, a number, and an exponent. */
function variants(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [record, {}];
  for (const f of fields) {
    const { [f]: _, ...without } = record;
    out.push(without);
    for (const value of [null, '', 'x', 12, '1e5', '-0.5', '12345678901234567890123.5', []])
      out.push({ ...record, [f]: value });
  }
  // Two fields wrong at once: the messages in the order the schema checks them.
  if (fields.length >= 2) out.push({ ...record, [fields[0] as string]: 12, [fields.at(-1) as string]: 12 });
  return out;
}

/** The record time each paged stream read before its ts column said its field (main fc2264f). */
const TIME_BEFORE: Readonly<Record<string, (r: Record<string, unknown>) => number>> = {
  margin_records: (r) => Number(r['ts']),
  futures_fills: (r) => Number(r['cTime']),
  withdrawals: (r) => Number(r['cTime']),
  p2p_advertisements: (r) => Number(r['cTime'] ?? r['ctime']),
  deposits: (r) => Number(r['cTime']),
  futures_tax_records: (r) => Number(r['ts']),
  spot_tax_records: (r) => Number(r['ts']),
  p2p_tax_records: (r) => Number(r['ts']),
  uta_tax_records: (r) => Number(r['ts']),
  uta_financial_records: (r) => Number(r['ts']),
  copy_transfers: (r) => Number(r['createdTime']),
  copy_profit_shares: (r) => Number(r['settleTime']),
  lead_trader_profits: (r) => Number(r['profitTime']),
};

describe('the record schemas made from the columns', () => {
  const published = publishedRecords();

  it('check the fields the hand-written schemas checked, no more, no fewer', () => {
    for (const stream of STREAMS) {
      const before = BEFORE[stream.name];
      expect(before, stream.name).toBeDefined();
      expect(Object.keys(stream.schema.shape).sort(), stream.name).toEqual(
        Object.keys((before as z.ZodObject).shape).sort(),
      );
    }
  });

  it('read every published response of test/fixtures/real/', () => {
    expect([...published.keys()].sort()).toEqual(
      STREAMS.map((s) => s.name)
        .filter((n) => !n.startsWith('copy_'))
        .sort(),
    );
  });

  it('accept and reject what the hand-written schemas did, with the same messages', () => {
    let compared = 0;
    for (const stream of STREAMS) {
      const before = BEFORE[stream.name] as z.ZodObject;
      const fields = Object.keys(before.shape);
      // The copy-trading streams have no published response: a record made of the docs' field lists stands in.
      const records = published.get(stream.name) ?? [
        Object.fromEntries(fields.map((f) => [f, f.endsWith('Time') ? '1700000000000' : '1'])),
      ];
      for (const record of records) {
        for (const variant of variants(record, fields)) {
          const now = verdict(stream.schema, variant);
          const then = verdict(before, variant);
          // The same messages; for a record with more than one field wrong, in the order of the columns that check
          // them.
          if ('issues' in now && 'issues' in then)
            expect([...now.issues].sort(), `${stream.name} ${JSON.stringify(variant)}`).toEqual(
              [...then.issues].sort(),
            );
          else expect(now, `${stream.name} ${JSON.stringify(variant)}`).toEqual(then);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("read each record's time from the field its ts column names, as before", () => {
    for (const stream of STREAMS) {
      if (stream.kind !== 'paged') continue;
      const before = TIME_BEFORE[stream.name] as (r: Record<string, unknown>) => number;
      const records = [
        ...(published.get(stream.name) ?? []),
        { cTime: '1', ctime: '2', ts: '3', createdTime: '4', settleTime: '5', profitTime: '6' },
        { ctime: '7' },
        {},
      ];
      for (const record of records)
        expect(stream.time(record), `${stream.name} ${JSON.stringify(record)}`).toEqual(before(record));
    }
  });
});
