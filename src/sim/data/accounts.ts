import { formatUnits, randomUnits } from './decimal.js';
import { OUTFLOW } from './margin.js';
import type { PriceUnits } from './markets.js';
import type {
  AccountTruth,
  AccountType,
  BalanceKey,
  Movement,
  Partition,
  Payload,
  PagedStream,
  SimRecord,
} from './types.js';

export type { AccountTruth, AccountType, BalanceKey, Movement };
import type { Rng } from './rng.js';

/**
 * The simulator's one account: what each record it serves does to which balance, by its own reading of what it
 * generated (independent of ledgerpipe's type catalog, so a test comparing the two proves something), the
 * opening balances, the running balances its records carry, and the per-asset balances it serves.
 */

export const PLACES = 8;
const SCALE = 10n ** BigInt(PLACES);

export const keyOf = (k: BalanceKey): string => `${k.accountType}|${k.asset}|${k.symbol}`;
export function keyFrom(key: string): BalanceKey {
  const [accountType, asset, symbol] = key.split('|') as [AccountType, string, string];
  return { accountType, asset, symbol };
}

/** A decimal string of at most 8 decimals as units of 10^-8. */
export function units8(text: unknown): bigint {
  const s = String(text ?? '0');
  if (s === '' || s === 'null') return 0n;
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (m === null) throw new Error(`not a decimal: ${s}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > PLACES) throw new Error(`more than ${PLACES} decimals: ${s}`);
  const value = BigInt(m[2] as string) * SCALE + BigInt((frac || '0').padEnd(PLACES, '0'));
  return m[1] === '-' ? -value : value;
}

const abs = (u: bigint): bigint => (u < 0n ? -u : u);
const FUTURES_TYPE: Record<string, AccountType> = {
  'USDT-FUTURES': 'usdt_futures',
  'COIN-FUTURES': 'coin_futures',
  'USDC-FUTURES': 'usdc_futures',
};
const FILL_MARGIN_COIN: Record<string, (symbol: string) => string> = {
  'USDT-FUTURES': () => 'USDT',
  'USDC-FUTURES': () => 'USDC',
  'COIN-FUTURES': (symbol) => symbol.replace(/USD([A-Z]\d{2})?$/, ''),
};
/** Futures tax types that repeat what the fills carry (their profit and fee): not a movement of their own. */
const REPEATS_FILLS = /^(open|close|burst)/;

/** What one record moves: an account type's balance of an asset (of a symbol, for isolated margin and copy). */
type RecordMovement = Omit<Movement, 'ts' | 'stream' | 'id'>;

/** The movements of one record of its stream, from its partition and its payload. */
type MovementsOf = (partition: string, r: Payload) => RecordMovement[];

function marginMovements(partition: string, r: Payload): RecordMovement[] {
  const type = String(r['marginTaxType']);
  const main = units8(r['amount']);
  const symbol = partition === 'isolated' ? String(r['symbol']) : '';
  const accountType: AccountType = partition === 'isolated' ? 'margin_isolated' : 'margin_crossed';
  return [
    {
      accountType,
      asset: String(r['coin']),
      symbol,
      units: (OUTFLOW.has(type) ? -abs(main) : abs(main)) + units8(r['fee']),
    },
  ];
}

function futuresFillMovements(partition: string, r: Payload): RecordMovement[] {
  const accountType = FUTURES_TYPE[partition] as AccountType;
  const marginCoin = String(
    r['marginCoin'] ?? (FILL_MARGIN_COIN[partition] as (s: string) => string)(String(r['symbol'])),
  );
  const out: RecordMovement[] = [{ accountType, asset: marginCoin, symbol: '', units: units8(r['profit']) }];
  for (const e of (r['feeDetail'] ?? []) as Payload[]) {
    const fee = units8(e['totalFee']);
    out.push({
      accountType,
      asset: String(e['feeCoin']),
      symbol: '',
      units: e['deduction'] === 'yes' ? -abs(fee) : fee,
    });
  }
  return out;
}

function spotTaxMovements(_partition: string, r: Payload): RecordMovement[] {
  const units = units8(r['amount']) + units8(r['fee']);
  const out: RecordMovement[] = [{ accountType: 'spot', asset: String(r['coin']), symbol: '', units }];
  // Subscriptions and redemptions move coin between spot and earn, which has no records of its own.
  if (r['spotTaxType'] === 'Subscribe' || r['spotTaxType'] === 'Redemption')
    out.push({ accountType: 'earn', asset: String(r['coin']), symbol: '', units: -units });
  return out;
}

/**
 * The movements of each stream's records, read as the simulator generated them. A stream not listed moves nothing
 * of its own: deposits and withdrawals reach the spot account as spot tax records (their mirrors), counted there.
 */
const MOVEMENTS: Partial<Record<PagedStream, MovementsOf>> = {
  margin_records: marginMovements,
  futures_fills: futuresFillMovements,
  futures_tax_records: (partition, r) =>
    REPEATS_FILLS.test(String(r['futureTaxType']))
      ? []
      : [
          {
            accountType: FUTURES_TYPE[partition] as AccountType,
            asset: String(r['marginCoin']),
            symbol: '',
            units: units8(r['amount']) + units8(r['fee']),
          },
        ],
  spot_tax_records: spotTaxMovements,
  p2p_tax_records: (_partition, r) => [
    { accountType: 'funding', asset: String(r['coin']), symbol: '', units: units8(r['balance'] ?? r['total']) },
  ],
  // A unified account (docs/unified-accounts.md): its tax records move the unified account, amount and fee as
  // signed; of its financial records, the funding account's move the funding account, and the unified account's
  // categories are the same movements its tax records list (counted there).
  uta_tax_records: (_partition, r) => [
    { accountType: 'unified', asset: String(r['coin']), symbol: '', units: units8(r['amount']) + units8(r['fee']) },
  ],
  uta_financial_records: (partition, r) =>
    partition === 'funding'
      ? [
          {
            accountType: 'funding',
            asset: String(r['coin']),
            symbol: '',
            units: units8(r['amount']) + units8(r['fee']),
          },
        ]
      : [],
  // A copy-trading project's account (its project the symbol): its transfers in and out, and the shares it paid.
  // Its trading shows in no record (src/sim/data/uta/dataset.ts counts it).
  copy_transfers: (partition, r) => {
    const units = abs(units8(r['amount']));
    return [
      {
        accountType: 'copy',
        asset: String(r['coin']),
        symbol: partition,
        units: r['toType'] === 'copy' ? units : -units,
      },
    ];
  },
  copy_profit_shares: (partition, r) => [
    { accountType: 'copy', asset: 'USDT', symbol: partition, units: -abs(units8(r['shareProfit'])) },
  ],
};

/** The movements of one record of `stream`, read as the simulator generated it. */
function movementsOf(stream: PagedStream, partition: string, r: Payload): RecordMovement[] {
  return MOVEMENTS[stream]?.(partition, r) ?? [];
}

const byTimeThenId = (a: { ts: number; id: string }, b: { ts: number; id: string }): number =>
  a.ts - b.ts || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every record's movements, oldest first. */
export function accountMovements(streams: Record<PagedStream, Partition[]>): Movement[] {
  const out: Movement[] = [];
  for (const [stream, partitions] of Object.entries(streams) as [PagedStream, Partition[]][]) {
    for (const p of partitions) {
      for (const rec of p.records) {
        for (const m of movementsOf(stream, p.name, rec.record)) {
          if (m.units !== 0n || stream === 'spot_tax_records' || stream === 'margin_records') {
            out.push({
              accountType: m.accountType,
              asset: m.asset,
              symbol: m.symbol,
              units: m.units,
              ts: rec.ts,
              stream,
              id: rec.id,
            });
          }
        }
      }
    }
  }
  return out.sort(byTimeThenId);
}

/**
 * The balances a stress data set would need before its first record so that none ever goes below zero: per
 * balance, the lowest running sum of its movements (accountMovements, oldest first), plus a cushion. What funds the
 * stress account's opening (opening.ts) is sized from them.
 *
 * @example
 * const needed = neededOpenings(accountMovements(streams), rng);
 */
export function neededOpenings(movements: readonly Movement[], rng: Rng): Map<string, bigint> {
  const running = new Map<string, bigint>();
  const lowest = new Map<string, bigint>();
  for (const m of movements) {
    const k = keyOf(m);
    const next = (running.get(k) ?? 0n) + m.units;
    running.set(k, next);
    lowest.set(k, next < (lowest.get(k) ?? 0n) ? next : (lowest.get(k) ?? 0n));
  }
  const opening = new Map<string, bigint>();
  for (const k of [...running.keys()].sort())
    opening.set(k, -(lowest.get(k) ?? 0n) + randomUnits(rng.fork(k), 0, 50, PLACES));
  return opening;
}

/**
 * The account its records describe, from `opening` (default: every balance zero, an account funded by its own
 * records), and the running balances written into the records that carry one: a spot tax record's `balance` (per
 * coin) and a margin record's `total` (per coin; in isolated margin per pair and coin), each the balance after the
 * record, its fee included (docs/completeness.md, "Running balances"). Every balance the records move is in the
 * opening, zero when not given. Throws when a balance would go below zero: a generator sized something from more
 * than was there.
 *
 * @example
 * const account = settleAccount(streams); // account.opening: every balance 0n
 */
export function settleAccount(
  streams: Record<PagedStream, Partition[]>,
  opening: ReadonlyMap<string, bigint> = new Map(),
): AccountTruth {
  const movements = accountMovements(streams);
  // Each movement's balance key, made once: checking and the running balances both walk every movement.
  const keys = movements.map(keyOf);
  const full = new Map<string, bigint>();
  for (const k of [...new Set([...keys, ...opening.keys()])].sort()) full.set(k, opening.get(k) ?? 0n);
  writeRunningBalances(streams, movements, keys, full);
  return { opening: full, movements };
}

function writeRunningBalances(
  streams: Record<PagedStream, Partition[]>,
  movements: readonly Movement[],
  keys: readonly string[],
  opening: ReadonlyMap<string, bigint>,
): void {
  const byId = new Map<string, SimRecord>();
  for (const p of streams.spot_tax_records) for (const r of p.records) byId.set(`spot_tax_records:${r.id}`, r);
  for (const p of streams.margin_records) for (const r of p.records) byId.set(`margin_records:${r.id}`, r);
  const balance = new Map(opening);
  for (const [i, m] of movements.entries()) {
    const k = keys[i] as string;
    const after = (balance.get(k) ?? 0n) + m.units;
    if (after < 0n)
      throw new Error(
        `the simulated account's ${k} goes below zero at ${m.ts} (${m.stream} ${m.id}): ${formatUnits(after, PLACES)}`,
      );
    balance.set(k, after);
    if (m.accountType === 'earn') continue;
    const rec = byId.get(`${m.stream}:${m.id}`);
    if (rec === undefined) continue;
    rec.record[m.stream === 'spot_tax_records' ? 'balance' : 'total'] = formatUnits(after, PLACES);
  }
}

/** Each balance at instant `at` (movements before it), the opening included; every key the account has. */
export function balancesAt(truth: AccountTruth, at: number): Map<string, bigint> {
  const out = new Map(truth.opening);
  for (const m of truth.movements) {
    if (m.ts >= at) break;
    const k = keyOf(m);
    out.set(k, (out.get(k) ?? 0n) + m.units);
  }
  return out;
}

/** What the all-account-balance endpoint serves: each account type valued in USDT at `at`. */
export function usdtValuation(
  balances: ReadonlyMap<string, bigint>,
  priceAt: (symbol: string, ts: number) => PriceUnits,
  at: number,
): Payload[] {
  const groups: Record<string, bigint> = { spot: 0n, futures: 0n, funding: 0n, earn: 0n, bots: 0n, margin: 0n };
  for (const [k, units] of balances) {
    const { accountType, asset } = keyFrom(k);
    const group = accountType.endsWith('_futures')
      ? 'futures'
      : accountType.startsWith('margin_')
        ? 'margin'
        : accountType;
    let value = units;
    if (asset !== 'USDT') {
      let price: PriceUnits;
      try {
        price = priceAt(`${asset}USDT`, at);
      } catch {
        continue;
      }
      value = (units * price.units) / 10n ** BigInt(price.places);
    }
    groups[group] = (groups[group] ?? 0n) + value;
  }
  return Object.entries(groups).map(([accountType, v]) => ({ accountType, usdtBalance: formatUnits(v, PLACES) }));
}
