import { param, readModel, runModel, withParams, type Params } from '../warehouse/sql-graph.js';
import { hasTables } from '../duckdb/tables.js';
import type { Window } from '../time/window.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The file that makes holding_quantities. */
const HOLDINGS_FILE = 'completeness/30_holdings.sql';

/**
 * What proves an account's export complete, or shows where it is not (sql/completeness/; docs/completeness.md,
 * "Completeness"): read from the views for the run summary, `status`, manifest.json and the report. The text is written
 * in cli/ and report/.
 */

export interface BalanceBreak {
  account: string;
  stream: string;
  partition: string;
  asset: string;
  ts: number;
  sourceId: string;
  expected: string;
  reported: string;
  difference: string;
}

/** A running-balance step that adds up only with the record's movement reversed (view sign_mismatches). */
export interface SignMismatch {
  account: string;
  stream: string;
  partition: string;
  asset: string;
  ts: number;
  sourceId: string;
  /** The type as the platform spelled it, and the field that names it. */
  field: string;
  type: string;
  amount: string;
  /** What the ledger books for it, and the balance's own step (its opposite). */
  booked: string;
  step: string;
}

export interface Unexplained {
  account: string;
  accountType: string;
  asset: string;
  /** The earlier snapshot's time (reconciliation.period_start), Unix ms. */
  periodStart: number;
  /** The later snapshot's time (reconciliation.period_end), Unix ms. */
  periodEnd: number;
  snapshotChange: string;
  ledgerChange: string;
  unexplained: string;
}

export interface UnpairedTransfer {
  account: string;
  stream: string;
  accountType: string;
  asset: string;
  ts: number;
  sourceId: string;
  amount: string;
  possibleReason: string;
}

export interface Holding {
  account: string;
  accountType: string;
  asset: string;
  /** The instant held at (holdings.as_of), Unix ms. */
  asOf: number;
  quantity: string | null;
  valueUsdt: string | null;
  source: string;
}

export interface Completeness {
  /** How many breaks, sign mismatches and unpaired transfers there are; the lists hold the first LISTED of each. */
  counts: { breaks: number; signMismatches: number; unpaired: number };
  /** Findings: each makes a run incomplete (exit 4). */
  breaks: BalanceBreak[];
  signMismatches: SignMismatch[];
  unexplained: Unexplained[];
  /** Listed, not findings: each may be a record missing, or a transfer with a sub-account. */
  unpaired: UnpairedTransfer[];
  /** Running-balance steps checked, and those not (a record with a fee: docs/completeness.md, "Running balances"). */
  steps: { checked: number; unchecked: number };
  /**
   * The whole balance snapshots (every row with its quantity) and the pairs of consecutive ones of an account type,
   * each a span whose change the reconciliation sets against the ledger's: none with fewer than two snapshots.
   */
  snapshots: { taken: number; pairs: number };
  /** Account types whose balance endpoint the key could not read, at the latest snapshot. */
  unavailable: { account: string; accountType: string; reason: string }[];
  /** Account types the platform values above zero (account_balances) with no readable per-asset snapshot. */
  withoutSnapshot: { account: string; accountType: string; usdt: string }[];
}

const text = (v: unknown): string => String(v);
/** An amount as exact text; NULL where it does not fit DECIMAL(38,18) (balance_breaks says so). */
const amountText = (v: unknown): string => (v === null ? 'beyond DECIMAL(38,18)' : String(v));
const ms = (v: unknown): number => Number(v);

/** The rows of one of the reads of sql/reads/, with its parameters bound. */
async function read(warehouse: Warehouse, file: string, params: Params = {}): Promise<Record<string, unknown>[]> {
  return warehouse.exclusive((c) => withParams(c, params, () => readModel(c, `reads/${file}.sql`)));
}

/**
 * The most breaks and unpaired transfers of each account read into a summary (each view holds them all; counts are
 * whole).
 */
export const LISTED = 1000;

/**
 * The reads of readCompletenessByAccount (sql/reads/), over the views of sql/completeness/, every account at once:
 * the views walk every account's chains whatever the filter, so one read serves a run's accounts, their own files
 * and reports. Amounts are read as exact text; the lists hold the first LISTED of each account.
 */
const READS = {
  steps: 'balance_steps_by_account',
  breaks: 'balance_breaks_listed',
  signMismatches: 'sign_mismatches_listed',
  unexplained: 'unexplained',
  snapshots: 'snapshots_by_account',
  unpairedCount: 'unpaired_by_account',
  unpaired: 'unpaired_listed',
  unavailable: 'snapshots_unavailable',
  withoutSnapshot: 'without_snapshot',
} as const;

type Row = Record<string, unknown>;
/** Where a finding of a running balance stands: its record's account, stream, partition, asset, time and key. */
const placeOf = (r: Row) => ({
  account: text(r['account']),
  stream: text(r['stream']),
  partition: text(r['partition']),
  asset: text(r['asset']),
  ts: ms(r['ts_ms']),
  sourceId: text(r['source_id']),
});
const toBreak = (r: Row): BalanceBreak => ({
  ...placeOf(r),
  expected: amountText(r['expected']),
  reported: text(r['reported']),
  difference: amountText(r['difference']),
});
const toSignMismatch = (r: Row): SignMismatch => ({
  ...placeOf(r),
  field: text(r['field']),
  type: text(r['type']),
  amount: text(r['amount']),
  booked: amountText(r['booked']),
  step: amountText(r['step']),
});
const toUnexplained = (r: Row): Unexplained => ({
  account: text(r['account']),
  accountType: text(r['account_type']),
  asset: text(r['asset']),
  periodStart: ms(r['f']),
  periodEnd: ms(r['t']),
  snapshotChange: text(r['snapshot_change']),
  ledgerChange: text(r['ledger_change']),
  unexplained: text(r['unexplained']),
});
const toUnpaired = (r: Row): UnpairedTransfer => ({
  account: text(r['account']),
  stream: text(r['stream']),
  accountType: text(r['account_type']),
  asset: text(r['asset']),
  ts: ms(r['ts_ms']),
  sourceId: text(r['source_id']),
  amount: text(r['amount']),
  possibleReason: text(r['possible_reason']),
});

const nothingFound = (): Completeness => ({
  counts: { breaks: 0, signMismatches: 0, unpaired: 0 },
  breaks: [],
  signMismatches: [],
  unexplained: [],
  unpaired: [],
  steps: { checked: 0, unchecked: 0 },
  snapshots: { taken: 0, pairs: 0 },
  unavailable: [],
  withoutSnapshot: [],
});

/**
 * The findings and listings of every account, by account (one read of each view); undefined before a transform
 * made the views. An account with nothing to say is absent: completenessOf gives it an empty one.
 */
export async function readCompletenessByAccount(warehouse: Warehouse): Promise<Map<string, Completeness> | undefined> {
  if (
    !(await warehouse.exclusive((c) =>
      hasTables(c, ['balance_breaks', 'sign_mismatches', 'reconciliation', 'unpaired_transfers', 'asset_balances']),
    ))
  )
    return undefined;
  const listed = { lp_listed: param.integer(LISTED) };
  const readAll = (name: keyof typeof READS) =>
    read(warehouse, READS[name], ['breaks', 'signMismatches', 'unpaired'].includes(name) ? listed : {});
  const found = new Map<string, Completeness>();
  const of = (r: Row): Completeness => {
    const account = text(r['account']);
    const c = found.get(account) ?? nothingFound();
    found.set(account, c);
    return c;
  };
  for (const r of await readAll('steps')) {
    const c = of(r);
    c.steps = { checked: Number(r['checked']), unchecked: Number(r['unchecked']) };
    c.counts.breaks = Number(r['breaks']);
    c.counts.signMismatches = Number(r['reversed']);
  }
  for (const r of await readAll('snapshots'))
    of(r).snapshots = { taken: Number(r['taken']), pairs: Number(r['pairs']) };
  for (const r of await readAll('unpairedCount')) of(r).counts.unpaired = Number(r['unpaired']);
  const any = (count: (c: Completeness) => number) => [...found.values()].some((c) => count(c) > 0);
  if (any((c) => c.counts.breaks)) for (const r of await readAll('breaks')) of(r).breaks.push(toBreak(r));
  if (any((c) => c.counts.signMismatches))
    for (const r of await readAll('signMismatches')) of(r).signMismatches.push(toSignMismatch(r));
  if (any((c) => c.counts.unpaired)) for (const r of await readAll('unpaired')) of(r).unpaired.push(toUnpaired(r));
  for (const r of await readAll('unexplained')) of(r).unexplained.push(toUnexplained(r));
  for (const r of await readAll('unavailable'))
    of(r).unavailable.push({
      account: text(r['account']),
      accountType: text(r['account_type']),
      reason: text(r['unavailable']),
    });
  for (const r of await readAll('withoutSnapshot'))
    of(r).withoutSnapshot.push({
      account: text(r['account']),
      accountType: text(r['account_type']),
      usdt: text(r['usdt_balance']),
    });
  return found;
}

/** One account's completeness out of readCompletenessByAccount's, or every account's as one (undefined: all). */
export function completenessOf(byAccount: ReadonlyMap<string, Completeness>, account?: string): Completeness {
  if (account !== undefined) return byAccount.get(account) ?? nothingFound();
  // In the order of the accounts' names, whatever order the reads found them in: the manifest's bytes depend on it.
  return mergeCompleteness([...byAccount.keys()].sort().map((a) => byAccount.get(a) as Completeness));
}

/** The findings and listings of the warehouse, of one account or all; undefined before a transform made the views. */
export async function readCompleteness(warehouse: Warehouse, account?: string): Promise<Completeness | undefined> {
  const byAccount = await readCompletenessByAccount(warehouse);
  return byAccount === undefined ? undefined : completenessOf(byAccount, account);
}

/** Several accounts' completeness read apart (readCompleteness per account), as one. */
export function mergeCompleteness(parts: readonly Completeness[]): Completeness {
  const sum = (f: (c: Completeness) => number) => parts.reduce((n, c) => n + f(c), 0);
  return {
    counts: {
      breaks: sum((c) => c.counts.breaks),
      signMismatches: sum((c) => c.counts.signMismatches),
      unpaired: sum((c) => c.counts.unpaired),
    },
    breaks: parts.flatMap((c) => c.breaks),
    signMismatches: parts.flatMap((c) => c.signMismatches),
    unexplained: parts.flatMap((c) => c.unexplained),
    unpaired: parts.flatMap((c) => c.unpaired),
    steps: { checked: sum((c) => c.steps.checked), unchecked: sum((c) => c.steps.unchecked) },
    snapshots: { taken: sum((c) => c.snapshots.taken), pairs: sum((c) => c.snapshots.pairs) },
    unavailable: parts.flatMap((c) => c.unavailable),
    withoutSnapshot: parts.flatMap((c) => c.withoutSnapshot),
  };
}

/** How many findings make the run incomplete: every break, every sign mismatch and every unexplained difference. */
export const findingsOf = (c: Completeness): number => c.counts.breaks + c.counts.signMismatches + c.unexplained.length;

/**
 * Makes the holdings again when one of `instants` (a run's range ends) is not among them: holding_quantities is
 * made by the transform from the ranges of the runs before it, and a run with no new records (an export of
 * another range, a nightly's year so far) asks for instants of its own, given to the file as a variable.
 */
export async function ensureHoldingsAt(warehouse: Warehouse, instants: readonly number[]): Promise<void> {
  if (
    instants.length === 0 ||
    !(await warehouse.exclusive((c) => hasTables(c, ['holding_quantities', 'asset_balances', 'ledger'])))
  )
    return;
  const asked = { lp_holding_instants: param.instants(instants) };
  const [held] = await read(warehouse, 'holdings_held', asked);
  if (Number(held?.['n'] ?? 0) === new Set(instants).size) return;
  await warehouse.exclusive((c) => withParams(c, asked, () => runModel(c, HOLDINGS_FILE)));
}

/** The holdings at `instants` (each run range's ends), of one account or all, valued where a price is known. */
export async function readHoldings(
  warehouse: Warehouse,
  instants: readonly number[],
  account?: string,
): Promise<Holding[]> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['holdings'])))) return [];
  if (instants.length === 0) return [];
  const found = await read(warehouse, 'holdings_at', {
    lp_holding_instants: param.instants(instants),
    lp_account: param.text(account),
  });
  return found.map((r) => ({
    account: text(r['account']),
    accountType: text(r['account_type']),
    asset: text(r['asset']),
    asOf: ms(r['t']),
    quantity: r['quantity'] === null ? null : text(r['quantity']),
    valueUsdt: r['value_usdt'] === null ? null : text(r['value_usdt']),
    source: text(r['source']),
  }));
}

/** An open loan as the last snapshot shows it (table loans). */
export interface OpenLoan {
  account: string;
  asOf: number;
  orderId: string;
  coin: string;
  amount: string | null;
  interest: string | null;
  collateralCoin: string | null;
  collateralAmount: string | null;
}

/** The bots' result between two snapshots: a residual, never booked (view bot_results). */
export interface BotResult {
  account: string;
  asset: string;
  from: number;
  to: number;
  change: string | null;
  transfers: string | null;
  residual: string | null;
}

/**
 * What the balances show beside the holdings and no record books (docs/completeness.md, "Open loans" and "Bots and
 * copy trading: residuals"): the open loans of each account's latest snapshot, and the bots' residuals of the periods
 * that end in `range` (every period without one). Empty before a transform made the tables.
 */
export async function readResiduals(
  warehouse: Warehouse,
  range: Window | undefined,
  account?: string,
): Promise<{ loans: OpenLoan[]; bots: BotResult[] }> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['loans', 'bot_results'])))) return { loans: [], bots: [] };
  const opt = (v: unknown): string | null => (v === null ? null : String(v));
  const loanRows = await read(warehouse, 'open_loans', { lp_account: param.text(account) });
  const ending = { lp_from: param.instant(range?.start), lp_to: param.instant(range?.end) };
  const botRows = await read(warehouse, 'bot_results_ending', { ...ending, lp_account: param.text(account) });
  return {
    loans: loanRows
      .filter((r) => r['order_id'] !== null)
      .map((r) => ({
        account: text(r['account']),
        asOf: ms(r['at_ms']),
        orderId: text(r['order_id']),
        coin: text(r['coin']),
        amount: opt(r['amount']),
        interest: opt(r['interest']),
        collateralCoin: opt(r['collateral_coin']),
        collateralAmount: opt(r['collateral_amount']),
      })),
    bots: botRows.map((r) => ({
      account: text(r['account']),
      asset: text(r['asset']),
      from: ms(r['f']),
      to: ms(r['t']),
      change: opt(r['change']),
      transfers: opt(r['transfers']),
      residual: opt(r['residual']),
    })),
  };
}
