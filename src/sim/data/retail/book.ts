import { formatUnits } from '../decimal.js';
import { keyOf, PLACES, type BalanceKey } from '../accounts.js';
import {
  BEYOND_CLASSIC_STREAMS,
  type BeyondClassicStream,
  type PagedStream,
  type Partition,
  type Payload,
} from '../types.js';
import type { Rng } from '../rng.js';
import { buildEventRecords } from '../timeline.js';

/** One record to write: its payload once it has its id, and for a withdrawal still moving, what is served before. */
export type Draft = (id: string) => { record: Payload; before?: Payload };

/** The partitions of every stream, in the order the stress set has them (their index is part of each id). */
export const CLASSIC_PARTITIONS: Record<PagedStream, readonly string[]> = {
  margin_records: ['crossed', 'isolated'],
  futures_fills: ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'],
  withdrawals: [''],
  p2p_advertisements: [''],
  deposits: [''],
  futures_tax_records: ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'],
  spot_tax_records: [''],
  p2p_tax_records: [''],
  // A classic account: none of the unified account's streams, nor those read on request.
  ...(Object.fromEntries(BEYOND_CLASSIC_STREAMS.map((s): [string, readonly string[]] => [s, []])) as Record<
    BeyondClassicStream,
    readonly string[]
  >),
};

/**
 * The retail account as it is written, oldest first: what each balance holds at the instant being written (so
 * every trade, transfer and fee is sized from what is there), and the records written so far. A move that would
 * take a balance below zero throws: the account never spends what it does not have. The simulator's own reading of
 * the records (accounts.ts) is what it serves; a test holds the two equal.
 *
 * @example
 * const book = new RetailBook();
 * book.move({ accountType: 'spot', asset: 'USDT', symbol: '' }, 100_00000000n);
 */
export class RetailBook {
  private readonly balances = new Map<string, bigint>();
  private readonly drafts = new Map<string, { ts: number; legs: Draft[] }[]>();

  /** `partitions`: each stream's partitions in order (default a classic account's; a unified account has its own). */
  constructor(private readonly partitions: Record<PagedStream, readonly string[]> = CLASSIC_PARTITIONS) {}

  /** What `key` holds now, in units of 10^-8. */
  held(key: BalanceKey): bigint {
    return this.balances.get(keyOf(key)) ?? 0n;
  }

  /** Adds `units` (negative: takes) to `key`. */
  move(key: BalanceKey, units: bigint): void {
    const after = this.held(key) + units;
    if (after < 0n)
      throw new Error(`the retail account's ${keyOf(key)} would go below zero: ${formatUnits(after, PLACES)}`);
    this.balances.set(keyOf(key), after);
  }

  /** Writes one event of `stream` at `ts`: one record per leg, the legs in order and in one millisecond. */
  write(stream: PagedStream, partition: string, ts: number, legs: Draft[]): void {
    const at = `${stream}|${partition}`;
    this.drafts.set(at, [...(this.drafts.get(at) ?? []), { ts, legs }]);
  }

  /** The records written, every partition newest first with ids that grow with time (timeline.ts). */
  streams(rng: Rng): Record<PagedStream, Partition[]> {
    const out = {} as Record<PagedStream, Partition[]>;
    for (const [stream, names] of Object.entries(this.partitions) as [PagedStream, readonly string[]][]) {
      out[stream] = names.map((name, index) => ({
        name,
        records: buildEventRecords(
          this.drafts.get(`${stream}|${name}`) ?? [],
          index,
          rng.fork(`${stream}:${name}`),
          (event, leg, _ts, id) => (event.legs[leg] as Draft)(id),
        ),
      }));
    }
    return out;
  }
}
