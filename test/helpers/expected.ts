import type { Dataset, PagedStream, Payload } from '../../src/sim/data/types.js';

/** What a correct server answers for one page: records with start <= ts <= end, newest first, id below a bound. */
export function expectedPage(
  dataset: Dataset,
  stream: PagedStream,
  partition: string,
  query: { startTime: number; endTime: number; idLessThan?: string; limit: number },
): Payload[] {
  const records = dataset.streams[stream].find((p) => p.name === partition)?.records ?? [];
  return records
    .filter((r) => r.ts >= query.startTime && r.ts <= query.endTime)
    .filter((r) => query.idLessThan === undefined || BigInt(r.id) < BigInt(query.idLessThan))
    .slice(0, query.limit)
    .map((r) => r.record);
}
