import { compareIds } from '../util/ids.js';
import { SimApiError } from './api-error.js';
import type { Partition, SimRecord } from './data/types.js';

/**
 * The most records one query's window may hold: beyond it the live service refuses the query with 40303 "Can
 * only query up to 20,000 data" (docs/platform.md, "Answers and errors"), whatever the page.
 */
export const MAX_QUERY_RECORDS = 20_000;

export interface PageQuery {
  /** Inclusive bounds on the record time, Unix ms. */
  startTime: number;
  endTime: number;
  /** Exclusive upper bound on the id, when paging. */
  idLessThan?: string;
  limit: number;
  /** Extra filters such as `coin`, applied before the limit. */
  filter?: (record: SimRecord) => boolean;
}

/**
 * One partition, newest first, with what paging needs precomputed: record times for binary search and each
 * record's JSON, so that serving a page is a slice and a join (the simulator must never be a benchmark's
 * bottleneck).
 */
export class PartitionIndex {
  readonly name: string;
  readonly records: readonly SimRecord[];
  private readonly times: Float64Array;
  private readonly json: string[];
  private readonly beforeJson: (string | undefined)[];

  constructor(partition: Partition) {
    this.name = partition.name;
    this.records = partition.records;
    this.times = Float64Array.from(partition.records, (r) => r.ts);
    this.json = partition.records.map((r) => JSON.stringify(r.record));
    this.beforeJson = partition.records.map((r) => (r.before === undefined ? undefined : JSON.stringify(r.before)));
  }

  /** First index whose time is below `bound` (strictly, when `strict`), in the newest-first order. */
  private firstAtOrBelow(bound: number, strict: boolean): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.times[mid] as number;
      if (strict ? t < bound : t <= bound) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private firstIdBelow(idLessThan: string): number {
    let lo = 0;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds((this.records[mid] as SimRecord).id, idLessThan) < 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * Indexes of one page, newest first: records with startTime <= ts <= endTime (both inclusive, as the live
   * service) and id < idLessThan (exclusive), at most `limit`. A window of more than MAX_QUERY_RECORDS
   * records is refused, as the live service does.
   */
  page(query: PageQuery): number[] {
    let lo = this.firstAtOrBelow(query.endTime, false);
    const hi = this.firstAtOrBelow(query.startTime, true);
    if (hi - lo > MAX_QUERY_RECORDS) throw new SimApiError(400, '40303', 'Can only query up to 20,000 data');
    if (query.idLessThan !== undefined) lo = Math.max(lo, this.firstIdBelow(query.idLessThan));
    const out: number[] = [];
    for (let i = lo; i < hi && out.length < query.limit; i++) {
      if (query.filter === undefined || query.filter(this.records[i] as SimRecord)) out.push(i);
    }
    return out;
  }

  /** The record's JSON as served now: its earlier form until `moved` is true. */
  jsonAt(index: number, moved: boolean): string {
    const before = moved ? undefined : this.beforeJson[index];
    return before ?? (this.json[index] as string);
  }

  recordAt(index: number): SimRecord {
    return this.records[index] as SimRecord;
  }
}
