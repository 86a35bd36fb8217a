import { describe, expect, it } from 'vitest';
import { computeGains, type GainsOptions, type GainsResult } from '../../src/gains/gains.js';
import { replaceOpeningLots } from '../../src/gains/opening-lots.js';
import { dec } from '../../src/gains/decimal.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';
import { appendGolden } from './engine-helpers.js';

/** A small deterministic generator (mulberry32): the same histories on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One valued ledger row as the engine reads it (lp_ledger_valued_rows()), valued in EUR. */
interface Row {
  account: string;
  entryId: string;
  ts: number;
  asset: string;
  amount: string;
  category: string;
  taxClass: string;
  tradeGroup: string | null;
  value: string | null;
}

const DAY_MS = 86_400_000;
const START = Date.UTC(2025, 0, 1);
const day = (n: number): number => START + n * DAY_MS;

/**
 * The movements of days [from, to): buys and sells of BTC and ETH for EUR (some with a fee in the token), swaps,
 * withdrawals, deposits and interest, by two accounts; some without a value, some at one instant.
 */
function movements(seed: number, from: number, to: number, prefix: string): Row[] {
  const next = random(seed);
  const amount = (scale: number): string => (next() * scale + 0.001).toFixed(Math.floor(next() * 9) + 1);
  const out: Row[] = [];
  let ts = day(from);
  for (let i = 0; ts < day(to); i++) {
    ts += next() < 0.15 ? 0 : Math.floor(next() * 0.6 * DAY_MS);
    if (ts >= day(to)) break;
    const account = next() < 0.75 ? 'a' : 'b';
    const token = next() < 0.6 ? 'BTC' : 'ETH';
    const id = `${prefix}${i}`;
    const value = next() < 0.08 ? null : amount(3000);
    const row = (
      suffix: string,
      asset: string,
      signed: string,
      worth: string | null,
      category: string,
      taxClass: string,
      group: string | null,
    ): Row => ({
      account,
      entryId: `${id}${suffix}`,
      ts,
      asset,
      amount: signed,
      category,
      taxClass,
      tradeGroup: group,
      value: worth,
    });
    const k = next();
    const q = amount(3);
    if (k < 0.55) {
      const buy = next() < 0.55;
      out.push(
        row(
          't',
          token,
          buy ? q : `-${q}`,
          value === null ? null : buy ? value : `-${value}`,
          'spot_trade',
          'trade_leg',
          id,
        ),
      );
      out.push(
        row(
          'e',
          'EUR',
          buy ? `-${value ?? '1'}` : (value ?? '1'),
          buy ? `-${value ?? '1'}` : (value ?? '1'),
          'spot_trade',
          'trade_leg',
          id,
        ),
      );
      if (next() < 0.3) out.push(row('f', token, `-${amount(0.01)}`, `-${amount(3)}`, 'spot_fee', 'trading_fee', id));
    } else if (k < 0.65) {
      const other = token === 'BTC' ? 'ETH' : 'BTC';
      out.push(row('g', token, `-${q}`, value === null ? null : `-${value}`, 'conversion_out', 'conversion', id));
      out.push(row('r', other, amount(3), amount(3000), 'conversion_in', 'conversion', id));
    } else if (k < 0.78) {
      out.push(
        row(
          'w',
          token,
          `-${amount(1)}`,
          value === null ? null : `-${value}`,
          'withdrawal',
          'external_withdrawal',
          null,
        ),
      );
    } else if (k < 0.9) {
      out.push(row('d', token, q, value, 'deposit', 'external_deposit', null));
    } else {
      out.push(row('i', token, amount(0.1), value, 'interest', 'interest_earned', null));
    }
  }
  return out;
}

/** The valued ledger `rows`, in place of the warehouse's (table golden, read through lp_ledger_valued_rows()). */
async function putLedger(warehouse: Warehouse, ledger: readonly Row[]): Promise<void> {
  const c = warehouse.connection;
  await c.run('DELETE FROM golden');
  const appender = await c.createAppender('golden');
  for (const r of ledger) appendGolden(appender, { ...r, ts: new Date(r.ts).toISOString() });
  appender.closeSync();
}

/** A warehouse whose valued ledger is the table golden, in EUR. */
async function ledgerWarehouse(warehouse: Warehouse): Promise<void> {
  const c = warehouse.connection;
  await c.run(`CREATE OR REPLACE MACRO lp_valuation_fiat() AS CAST('EUR' AS VARCHAR)`);
  await c.run(
    `CREATE OR REPLACE TABLE golden (account VARCHAR, entry_id VARCHAR, ts TIMESTAMPTZ, asset VARCHAR, amount DECIMAL(38,18), category VARCHAR, tax_class VARCHAR, trade_group VARCHAR, value_usdt DECIMAL(38,18), value_fiat DECIMAL(38,18))`,
  );
  await c.run(`CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE SELECT * FROM golden`);
}

/** Every row of the tables of realized gains, in one order: what two computations must agree on. */
async function tables(warehouse: Warehouse): Promise<unknown> {
  return {
    disposals: await rows(warehouse, 'SELECT * FROM disposals ORDER BY ALL'),
    lots: await rows(warehouse, 'SELECT * FROM lots ORDER BY ALL'),
    summary: await rows(warehouse, 'SELECT * FROM gains_summary ORDER BY ALL'),
  };
}

/** Two warehouses of one valued ledger: one keeps its gains, the other computes them from the first movement. */
async function twoWarehouses(): Promise<{ kept: Warehouse; fresh: Warehouse; dispose: () => Promise<void> }> {
  const [a, b] = [await tempWarehouse(), await tempWarehouse()];
  await ledgerWarehouse(a.warehouse);
  await ledgerWarehouse(b.warehouse);
  return {
    kept: a.warehouse,
    fresh: b.warehouse,
    dispose: async () => Promise.all([a.dispose(), b.dispose()]).then(() => undefined),
  };
}

describe('gains kept against gains from the first movement', () => {
  for (const method of ['fifo', 'hifo', 'average', 'uk'] as const) {
    it(`${method}: the same tables after nights, late and changed records, an earlier range, opening lots given later and a setting changed`, async () => {
      const { kept, fresh, dispose } = await twoWarehouses();
      try {
        const seed = { fifo: 11, hifo: 23, average: 37, uk: 41 }[method];
        let ledger: Row[] = [];
        let options: GainsOptions = {
          costBasis: method,
          pool: method === 'fifo' || method === 'hifo' ? 'account' : 'all',
          taxYearStart: method === 'uk' ? '04-06' : '01-01',
          timeZone: 'UTC',
        };
        const wentOn: (number | null)[] = [];
        /**
         * The ledger changed by `change` (a transform's, noting where: its earliest instant), then both computations.
         */
        const step = async (
          what: string,
          change: (ledger: Row[]) => Row[],
          end: number | null,
        ): Promise<GainsResult> => {
          const before = new Map(ledger.map((r) => [r.entryId, JSON.stringify(r)]));
          ledger = change(ledger).sort((a, b) => a.ts - b.ts);
          const after = new Map(ledger.map((r) => [r.entryId, JSON.stringify(r)]));
          const touched = [
            ...ledger.filter((r) => before.get(r.entryId) !== after.get(r.entryId)),
            ...[...before.keys()]
              .filter((id) => !after.has(id))
              .map((id) => JSON.parse(before.get(id) as string) as Row),
          ];
          await putLedger(kept, ledger);
          await putLedger(fresh, ledger);
          if (touched.length > 0)
            await kept.connection.run(
              'INSERT INTO ledger_changes VALUES (make_timestamptz(CAST($ms AS BIGINT) * 1000), $what)',
              { ms: BigInt(Math.min(...touched.map((r) => r.ts))), what },
            );
          // As a run of the range ending at `end` asks (src/pipeline/gains-stage.ts): the UK rules 30 days past it.
          const range =
            end === null ? {} : method === 'uk' ? { until: end + 30 * DAY_MS, openAt: end } : { until: end };
          const result = await computeGains(kept.connection, { ...options, ...range });
          wentOn.push(result.wentOnFrom);
          await fresh.connection.run('DELETE FROM gains_kept');
          await computeGains(fresh.connection, { ...options, ...range });
          expect(await tables(kept), `${method}: ${what}`).toEqual(await tables(fresh));
          return result;
        };
        await step('the first 60 days', () => movements(seed, 0, 60, 'a'), null);
        await step('a night', (l) => [...l, ...movements(seed + 1, 60, 61, 'b')], day(61));
        // Nothing new: nothing read, the tables as they were (compared with the computation before).
        const again = await computeGains(kept.connection, {
          ...options,
          ...(method === 'uk' ? { until: day(91), openAt: day(61) } : { until: day(61) }),
        });
        expect([again.wentOnFrom === null, again.movements]).toEqual([false, 0]);
        expect(await tables(kept)).toEqual(await tables(fresh));
        await step(
          'two weeks, late records, a value changed and a withdrawal dropped',
          (l) => [
            ...l
              .map((r) =>
                r === l.find((x) => x.ts >= day(45) && x.asset !== 'EUR')
                  ? { ...r, value: r.value === null ? '7' : null }
                  : r,
              )
              .filter((r) => !(r.taxClass === 'external_withdrawal' && r.ts > day(55))),
            ...movements(seed + 2, 61, 75, 'c'),
            ...movements(seed + 3, 50, 52, 'd'),
          ],
          null,
        );
        await step('an earlier range', (l) => l, day(30));
        await step('a month after', (l) => [...l, ...movements(seed + 4, 75, 105, 'e')], day(105));
        const lots = [
          { account: 'a', asset: 'BTC', quantity: dec('5'), cost: dec('1000'), currency: 'EUR', acquiredAt: day(-10) },
          { account: 'b', asset: 'ETH', quantity: dec('2'), cost: dec('300'), currency: 'EUR', acquiredAt: day(20) },
        ];
        for (const w of [kept, fresh]) await replaceOpeningLots(w.connection, lots);
        expect((await step('opening lots given', (l) => l, day(105))).wentOnFrom).toBeNull();
        options = { ...options, withdrawals: 'disposal' };
        expect((await step('withdrawals now disposals', (l) => l, day(105))).wentOnFrom).toBeNull();
        await step('the rest of the year', (l) => [...l, ...movements(seed + 5, 105, 130, 'f')], null);
        // Most runs went on from a kept instant.
        expect(wentOn.filter((w) => w !== null).length).toBeGreaterThanOrEqual(4);
      } finally {
        await dispose();
      }
    });
  }
});
