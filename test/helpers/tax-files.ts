import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows } from './raw.js';

/** RFC 4180: fields split by commas, quoted fields may hold commas, quotes (doubled) and line ends. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) out.push([...row, field]);
  return out;
}

const SCALE = 18;

/** A plain decimal string as an integer count of 10^-18, exactly (no float on the way). */
export function units(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^[+-]/, '').split('.');
  if (fraction.length > SCALE) throw new Error(`${decimal} has more than ${SCALE} decimals`);
  const value = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0') || '0');
  return negative ? -value : value;
}

/** Net change per `account asset`, as exact units; zero entries dropped, so two nets compare as maps. */
export type Nets = Map<string, bigint>;

function add(nets: Nets, account: string, asset: string, amount: bigint): void {
  if (asset === '' || amount === 0n) return;
  const key = `${account} ${asset}`;
  const next = (nets.get(key) ?? 0n) + amount;
  if (next === 0n) nets.delete(key);
  else nets.set(key, next);
}

function header(table: string[][], names: readonly string[]): Record<string, number> {
  const head = table[0] ?? [];
  return Object.fromEntries(names.map((n) => [n, head.indexOf(n)]));
}

/**
 * What a koinly.csv import does to each account's balances, read as Koinly's universal format says
 * (support.koinly.io, article 9489976 "How to create a custom CSV file with your data"): a row adds its
 * Received Amount in Received Currency and takes away its Sent Amount in Sent Currency; its Fee Amount is paid
 * in addition, in Fee Currency ("100 USD Sent / 10 USD Fee / 1 BTC Received, or 110 USD Sent / 1 BTC Received
 * ... Both are the same"). The account is the name in brackets at the end of the Description.
 */
export function koinlyNets(text: string): Nets {
  const table = parseCsv(text);
  const c = header(table, [
    'Sent Amount',
    'Sent Currency',
    'Received Amount',
    'Received Currency',
    'Fee Amount',
    'Fee Currency',
    'Description',
  ]);
  const nets: Nets = new Map();
  for (const r of table.slice(1)) {
    const account = /\[([^\]]+)\]$/.exec(r[c['Description'] as number] ?? '')?.[1] ?? '';
    const cell = (name: string) => r[c[name] as number] ?? '';
    if (cell('Received Amount') !== '') add(nets, account, cell('Received Currency'), units(cell('Received Amount')));
    if (cell('Sent Amount') !== '') add(nets, account, cell('Sent Currency'), -units(cell('Sent Amount')));
    if (cell('Fee Amount') !== '') add(nets, account, cell('Fee Currency'), -units(cell('Fee Amount')));
  }
  return nets;
}

/**
 * What a cointracking.csv import does to each account's (Exchange's) balances, read as CoinTracking's help says
 * ("Entering fees", cointracking.freshdesk.com article 29000007202): the Buy and Sell amounts already include
 * every fee, and "the fee field is more an informational value ... Relevant for calculations are the entered
 * values": a row adds Buy Amount in Buy Currency and takes away Sell Amount in Sell Currency, nothing more.
 */
export function cointrackingNets(text: string): Nets {
  const table = parseCsv(text);
  const c = header(table, ['Buy Amount', 'Buy Currency', 'Sell Amount', 'Sell Currency', 'Exchange']);
  const nets: Nets = new Map();
  for (const r of table.slice(1)) {
    const cell = (name: string) => r[c[name] as number] ?? '';
    if (cell('Buy Amount') !== '') add(nets, cell('Exchange'), cell('Buy Currency'), units(cell('Buy Amount')));
    if (cell('Sell Amount') !== '') add(nets, cell('Exchange'), cell('Sell Currency'), -units(cell('Sell Amount')));
  }
  return nets;
}

/** The ledger's net change per account and asset over `[from, to)`, less internal transfers (their tax class). */
export async function ledgerNets(warehouse: Warehouse, from: number, to: number): Promise<Nets> {
  const nets: Nets = new Map();
  const list = await rows(
    warehouse,
    `SELECT l.account, l.asset, CAST(sum(l.amount) AS VARCHAR) AS total
     FROM ledger AS l JOIN category_meaning AS m USING (category)
     WHERE m.tax_class <> 'internal_transfer' AND l.ts >= make_timestamptz(${BigInt(from) * 1000n}) AND l.ts < make_timestamptz(${BigInt(to) * 1000n})
     GROUP BY ALL`,
  );
  for (const r of list) add(nets, String(r['account']), String(r['asset']), units(String(r['total'])));
  return nets;
}

/** A Nets as sorted `account asset amount` lines, so a failing comparison prints readably. */
export function netLines(nets: Nets): string[] {
  return [...nets.entries()].map(([key, value]) => `${key} ${value}`).sort();
}
