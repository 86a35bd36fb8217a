import type { DuckDBAppender } from '@duckdb/node-api';
import { dec, round, text } from '../../src/gains/decimal.js';
import { readFile } from 'node:fs/promises';
import { computeGains, type GainsOptions } from '../../src/gains/gains.js';
import { parseOpeningLots, replaceOpeningLots } from '../../src/gains/opening-lots.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows } from '../helpers/raw.js';

/** One valued ledger row as the gains engine reads it (lp_ledger_valued_rows()), its value in the unit. */
export interface GoldenRow {
  ts: string;
  asset: string;
  amount: string;
  value: string | null;
  category: string;
  taxClass: string;
  tradeGroup?: string;
  account?: string;
}

/**
 * A buy or a sale of `token` for `pounds` of the fiat (GBP) at `ts`: the two legs of one trade group, each valued
 * at the consideration, as the warehouse books a spot trade (tax class trade_leg).
 */
export function trade(
  ts: string,
  token: string,
  quantity: string,
  pounds: string,
  side: 'buy' | 'sell',
  fiat = 'GBP',
): GoldenRow[] {
  const group = `${side}-${token}-${ts}`;
  const tokenAmount = side === 'buy' ? quantity : `-${quantity}`;
  const fiatAmount = side === 'buy' ? `-${pounds}` : pounds;
  return [
    {
      ts,
      asset: token,
      amount: tokenAmount,
      value: side === 'buy' ? pounds : `-${pounds}`,
      category: 'spot_trade',
      taxClass: 'trade_leg',
      tradeGroup: group,
    },
    {
      ts,
      asset: fiat,
      amount: fiatAmount,
      value: fiatAmount,
      category: 'spot_trade',
      taxClass: 'trade_leg',
      tradeGroup: group,
    },
  ];
}

/**
 * A crypto-to-crypto swap: `given` of one token (worth `givenValue`) for `received` of another (worth `receivedValue`).
 */
export function swap(ts: string, given: [string, string, string], received: [string, string, string]): GoldenRow[] {
  const group = `swap-${ts}-${given[0]}-${received[0]}`;
  return [
    {
      ts,
      asset: given[0],
      amount: `-${given[1]}`,
      value: `-${given[2]}`,
      category: 'conversion_out',
      taxClass: 'conversion',
      tradeGroup: group,
    },
    {
      ts,
      asset: received[0],
      amount: received[1],
      value: received[2],
      category: 'conversion_in',
      taxClass: 'conversion',
      tradeGroup: group,
    },
  ];
}

/**
 * Puts `ledger` in the warehouse as its valued ledger, valued in `fiat` (the engine reads lp_ledger_valued_rows()
 * and lp_valuation_fiat(), which the transform and the valuation make from real records), and runs the engine.
 */
/** One row of the table golden as a valued ledger's row: value_usdt NULL, value_fiat the row's value. */
export function appendGolden(
  appender: DuckDBAppender,
  r: {
    account: string;
    entryId: string;
    ts: string;
    asset: string;
    amount: string;
    category: string;
    taxClass: string;
    tradeGroup: string | null;
    value: string | null;
  },
): void {
  for (const text of [r.account, r.entryId, r.ts, r.asset, r.amount, r.category, r.taxClass])
    appender.appendVarchar(text);
  for (const text of [r.tradeGroup, null, r.value]) {
    if (text === null) appender.appendNull();
    else appender.appendVarchar(text);
  }
  appender.endRow();
}

export async function runEngine(
  warehouse: Warehouse,
  ledger: readonly GoldenRow[],
  options: Partial<GainsOptions> & { fiat?: string; openingLots?: string },
) {
  const c = warehouse.connection;
  // The lots of --opening-lots, as the settings keep them (table opening_lots).
  const { openingLots: lotsFile, ...gainsOptions } = options;
  await replaceOpeningLots(
    c,
    lotsFile === undefined ? [] : parseOpeningLots(await readFile(lotsFile, 'utf8'), lotsFile),
  );
  const fiat = options.fiat ?? 'GBP';
  await c.run(`CREATE OR REPLACE MACRO lp_valuation_fiat() AS CAST('${fiat}' AS VARCHAR)`);
  await c.run(
    `CREATE OR REPLACE TABLE golden (account VARCHAR, entry_id VARCHAR, ts TIMESTAMPTZ, asset VARCHAR, amount DECIMAL(38,18), category VARCHAR, tax_class VARCHAR, trade_group VARCHAR, value_usdt DECIMAL(38,18), value_fiat DECIMAL(38,18))`,
  );
  const appender = await c.createAppender('golden');
  ledger.forEach((r, i) =>
    appendGolden(appender, {
      ...r,
      account: r.account ?? 'default',
      entryId: `e${String(i).padStart(5, '0')}`,
      tradeGroup: r.tradeGroup ?? null,
    }),
  );
  appender.closeSync();
  await c.run(`CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE SELECT * FROM golden`);
  // A valued ledger put in whole, as a transform that makes the ledger whole notes it
  // (sql/ledger/40_ledger_changed.sql).
  await c.run(`INSERT INTO ledger_changes VALUES (NULL, 'a golden ledger')`);
  return computeGains(c, {
    costBasis: 'fifo',
    pool: 'account',
    taxYearStart: '01-01',
    timeZone: 'UTC',
    ...gainsOptions,
  });
}

/** Plain decimal text: "258000" for 258000.000000000000000000. */
export const plain = (value: string | null): string | null => (value === null ? null : text(dec(value)));

/**
 * An allowable cost as HMRC's examples print it: whole pounds, rounded up (938 for 937.5 in CRYPTO22252, 63 for
 * 62.5 in CRYPTO22254, 313,637 for 313,636.36 in CRYPTO22256), the gain then being consideration less it.
 */
export const hmrcCost = (value: string): string => {
  const exact = dec(value);
  const whole = round(exact, 0);
  return text(whole >= exact ? whole : whole + dec('1'));
};

/** Disposals as plain rows of the columns named, in the table's order. */
export async function disposalRows(warehouse: Warehouse, columns: string): Promise<Record<string, string | null>[]> {
  const found = await rows(
    warehouse,
    `SELECT ${columns} FROM disposals ORDER BY disposed_at, match_rule, acquired_at NULLS LAST`,
  );
  return found.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, /^-?\d+\.\d+$/.test(v ?? '') ? plain(v) : v])),
  );
}

/** The open lots (or pools) as plain rows: account, asset, quantity, cost. */
export async function lotRows(warehouse: Warehouse): Promise<Record<string, string | null>[]> {
  const found = await rows(
    warehouse,
    `SELECT account, asset, quantity, cost, strftime(acquired_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS acquired FROM lots ORDER BY account, asset, acquired_at NULLS FIRST`,
  );
  return found.map((r) => ({ ...r, quantity: plain(r['quantity'] ?? null), cost: plain(r['cost'] ?? null) }));
}

/** The gain of each disposal instant (its slices summed), in time order. */
export async function gainsByDisposal(
  warehouse: Warehouse,
): Promise<{ at: string; proceeds: string; cost: string; fees: string; gain: string }[]> {
  const found = await rows(
    warehouse,
    `SELECT strftime(disposed_at AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M') AS at, sum(proceeds) AS proceeds, sum(cost) AS cost, sum(fees) AS fees, sum(gain) AS gain FROM disposals WHERE proceeds IS NOT NULL GROUP BY disposed_at ORDER BY disposed_at`,
  );
  return found.map((r) => ({
    at: r['at'] as string,
    proceeds: plain(r['proceeds'] ?? null) as string,
    cost: plain(r['cost'] ?? null) as string,
    fees: plain(r['fees'] ?? null) as string,
    gain: plain(r['gain'] ?? null) as string,
  }));
}
