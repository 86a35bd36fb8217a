import { STREAMS } from '../../streams/index.js';
import { PAGED_STREAMS, type PagedStream, type StreamName, type UtaOnlyStream } from '../../streams/manifest.js';
import { readFor } from '../../streams/stream.js';
import type { SimMarket } from './markets.js';

/** The record streams the simulator serves: ledgerpipe's own (src/streams/manifest.ts). */
export { PAGED_STREAMS, type PagedStream, type StreamName, type UtaOnlyStream };

/**
 * The classic streams the simulator writes records of, each by a generator of its own (dataset.ts, retail/): a classic
 * stream without one (a stream just added: docs/adding-a-stream.md) has no record in its data sets until it is given
 * one.
 */
export const SIM_CLASSIC_STREAMS = [
  'margin_records',
  'futures_fills',
  'withdrawals',
  'p2p_advertisements',
  'deposits',
  'futures_tax_records',
  'spot_tax_records',
  'p2p_tax_records',
] as const satisfies readonly PagedStream[];

/**
 * The streams the simulator's classic accounts have no record of: a unified account's, those read on request (the
 * unified account serves its copy project's), and those it has no generator for.
 */
export type BeyondClassicStream = Exclude<PagedStream, (typeof SIM_CLASSIC_STREAMS)[number]>;

export type Payload = Record<string, unknown>;

/** One generated record. */
export interface SimRecord {
  /** The record's time in Unix ms: what startTime/endTime filter on. */
  ts: number;
  /** The id that idLessThan pages on (numeric string); ids grow with ts inside a partition. */
  id: string;
  /** The payload as served once final (and as written to `--truth`). */
  record: Payload;
  /** For a withdrawal whose status moves while the simulator runs: the payload served before the move. */
  before?: Payload;
}

/** One partition of a stream (a marginType, a productType, or '' for none), records newest first. */
export interface Partition {
  name: string;
  records: SimRecord[];
}

export interface Dataset {
  from: number;
  to: number;
  /** The account's kind (docs/unified-accounts.md): which endpoints serve it, and which refuse its key. */
  accountMode: 'classic' | 'uta';
  /**
   * The account's registration, Unix ms: every balance but the bots' is zero then (the account-info endpoint's
   * `regisTime`).
   */
  openedAt: number;
  /** What the simulator serves: every record but the dropped ones. */
  streams: Record<PagedStream, Partition[]>;
  /** all-account-balance's answer: each account type valued in USDT at the range's end. */
  balances: Payload[];
  /** The account the records describe, dropped records included (accounts.ts). */
  account: AccountTruth;
  /** The crypto loans open at the range's end, in the shape of the docs' example (the loan endpoints serve them). */
  openLoans?: Payload[];
  /** Records left out of the answers (`--drop-records`), each with its stream and partition; counted in `account`. */
  dropped: { stream: PagedStream; partition: string; record: SimRecord }[];
}

export interface GenerateOptions {
  seed: string;
  /** Start of the range, Unix ms (inclusive). */
  from: number;
  /** End of the range, Unix ms (exclusive). */
  to: number;
  /** Scale: the number of futures fills in the range; other streams are sized from it. */
  records: number;
  /** The margin window the simulator enforces, so records also sit on its seams. */
  marginWindowDays: number;
  /** The seed of the candles the server serves, which trades are priced at (default: `seed`). */
  priceSeed?: string;
  markets?: readonly SimMarket[];
  /** The account's registration, Unix ms, before every record (default: the data set's own). */
  openedAt?: number;
}

export const DAY_MS = 86_400_000;

/** The account types of the per-asset balance endpoints (docs/completeness.md, "Balances"). */
export type AccountType =
  | 'spot'
  | 'usdt_futures'
  | 'coin_futures'
  | 'usdc_futures'
  | 'margin_crossed'
  | 'margin_isolated'
  | 'earn'
  | 'funding'
  | 'bots'
  | 'unified'
  | 'copy';

/** One balance: an account type's asset (in isolated margin, of one pair). */
export interface BalanceKey {
  accountType: AccountType;
  asset: string;
  /** The pair of an isolated margin balance, else ''. */
  symbol: string;
}

/** One record's effect on one balance, in units of 10^-8. */
export interface Movement extends BalanceKey {
  ts: number;
  stream: PagedStream;
  id: string;
  units: bigint;
}

export interface AccountTruth {
  /** Every balance's opening (before the first record), keyed by keyOf. */
  opening: Map<string, bigint>;
  /** Every record's movements, oldest first (by time, then id). */
  movements: Movement[];
}

/**
 * The streams read for unified accounts only (docs/unified-accounts.md): a classic account's data holds no records
 * of them, and a unified account's none of the classic streams'.
 */
export const UTA_ONLY_STREAMS: readonly UtaOnlyStream[] = STREAMS.filter(
  (s) => s.kind === 'paged' && readFor(s, 'uta') && !readFor(s, 'classic'),
).map((s) => s.name as UtaOnlyStream);

/** The streams the simulator's classic accounts hold no record of (BeyondClassicStream), in the streams' order. */
export const BEYOND_CLASSIC_STREAMS: readonly BeyondClassicStream[] = PAGED_STREAMS.filter(
  (s): s is BeyondClassicStream => !(SIM_CLASSIC_STREAMS as readonly string[]).includes(s),
);

/** The streams a classic account of the simulator holds records of. */
export const CLASSIC_STREAMS: readonly PagedStream[] = PAGED_STREAMS.filter(
  (s) => !(BEYOND_CLASSIC_STREAMS as readonly string[]).includes(s),
);

/**
 * Each of `names` with its partitions and no record in them: what an account of the other kind has of those streams.
 */
export function withoutRecords<S extends PagedStream>(names: readonly S[]): Record<S, Partition[]> {
  const out = {} as Record<S, Partition[]>;
  for (const name of names) {
    const def = STREAMS.find((s) => s.name === name);
    out[name] = def?.kind === 'paged' ? def.partitions.map((p) => ({ name: p.name, records: [] })) : [];
  }
  return out;
}
