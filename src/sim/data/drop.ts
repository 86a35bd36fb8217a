import type { Dataset, PagedStream, SimRecord } from './types.js';

/** Single-record types a drop may take (a trade's leg would also leave its trade unpaired). */
const DROPPABLE: Partial<Record<PagedStream, { field: string; types: ReadonlySet<string> }>> = {
  spot_tax_records: {
    field: 'spotTaxType',
    types: new Set(['Interest', 'Rebate rewards', 'Trading fee rebate', 'Airdrop Reward-A']),
  },
  margin_records: { field: 'marginTaxType', types: new Set(['borrow', 'repay', 'interest_repay', 'compensate']) },
};

const isZero = (fee: unknown): boolean => fee === undefined || fee === null || fee === '' || Number(fee) === 0;

/**
 * The chain a record's running balance belongs to: spot per coin, crossed margin per coin, isolated per pair and coin.
 */
function chainOf(stream: PagedStream, partition: string, r: SimRecord): string {
  const coin = String(r.record['coin']);
  return stream === 'margin_records'
    ? `${partition}:${partition === 'isolated' ? String(r.record['symbol']) : ''}:${coin}`
    : coin;
}

/**
 * `--drop-records N`: leaves N records out of the answers while the balances and the running balances still count them,
 * as a platform that lost them would (docs/completeness.md, "Running balances"). Each is a single-record type with no
 * fee inside the range, in a chain of its own, followed in its chain by a record without a fee inside the range (one
 * ledgerpipe checks: docs/completeness.md, "Running balances"); they are spread evenly over those that qualify.
 */
export function dropRecords(dataset: Dataset, n: number): Dataset {
  if (n <= 0) return dataset;
  const candidates: { stream: PagedStream; partition: string; chain: string; record: SimRecord }[] = [];
  for (const stream of ['spot_tax_records', 'margin_records'] as const) {
    const rule = DROPPABLE[stream] as { field: string; types: ReadonlySet<string> };
    for (const p of dataset.streams[stream]) {
      const oldestFirst = [...p.records].reverse();
      const next = new Map<string, SimRecord>();
      // Walk newest first so `next` holds each chain's following record.
      for (let i = oldestFirst.length - 1; i >= 0; i--) {
        const r = oldestFirst[i] as SimRecord;
        const chain = chainOf(stream, p.name, r);
        const after = next.get(chain);
        const inRange = (x: SimRecord) => x.ts >= dataset.from && x.ts < dataset.to;
        if (
          after !== undefined &&
          inRange(r) &&
          inRange(after) &&
          rule.types.has(String(r.record[rule.field])) &&
          isZero(r.record['fee']) &&
          isZero(after.record['fee'])
        ) {
          candidates.push({ stream, partition: p.name, chain: `${stream}:${chain}`, record: r });
        }
        next.set(chain, r);
      }
    }
  }
  candidates.sort((x, y) => x.record.ts - y.record.ts || (x.record.id < y.record.id ? -1 : 1));
  const chains = new Set<string>();
  const picked: typeof candidates = [];
  for (let j = 0; j < n; j++) {
    // From the j-th of n evenly spaced places, the first candidate of a chain not yet taken.
    const start = Math.floor(((j + 0.5) * candidates.length) / n);
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[(start + i) % candidates.length] as (typeof candidates)[number];
      if (chains.has(c.chain)) continue;
      chains.add(c.chain);
      picked.push(c);
      break;
    }
  }
  if (picked.length < n)
    throw new Error(`--drop-records ${n}: only ${picked.length} records qualify; generate more records`);
  const gone = new Set(picked.map((p) => `${p.stream}:${p.record.id}`));
  const streams = Object.fromEntries(
    Object.entries(dataset.streams).map(([stream, partitions]) => [
      stream,
      partitions.map((p) => ({ name: p.name, records: p.records.filter((r) => !gone.has(`${stream}:${r.id}`)) })),
    ]),
  ) as Dataset['streams'];
  return {
    ...dataset,
    streams,
    dropped: picked.map(({ stream, partition, record }) => ({ stream, partition, record })),
  };
}
