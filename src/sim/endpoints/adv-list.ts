import { badParam } from '../api-error.js';
import { DAY_MS } from '../data/types.js';
import { checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import { pagedFacts } from './stream-facts.js';

const FILTERS = ['coin', 'fiat', 'advNo'] as const;

/**
 * GET /api/v2/p2p/advList (spec section 1, with the live docs' rules): startTime required; endTime optional, at
 * most 90 days after it (omitted, it is taken as startTime + 90 days); `side` and `status` required (the live
 * docs; the spec makes them optional), so each pair is one partition; `limit` default and maximum 20 (the live
 * cap since 2024-08-28; the spec says default 100); newest first by creation time; `{advList, minAdvId}`.
 */
export function advListEndpoint(partitions: ReadonlyMap<string, PartitionIndex>): Endpoint {
  const facts = pagedFacts('p2p_advertisements');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle({ params, moved }) {
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', false) ?? startTime + facts.windowDays * DAY_MS;
      checkWindow(startTime, endTime, facts.windowDays, 'exceed');
      const side = params.required('side');
      const status = params.required('status');
      const index = partitions.get(`${side}:${status}`);
      if (index === undefined) throw badParam(partitions.has(`buy:${status}`) ? 'side' : 'status');
      const limit = params.limit(facts.pageMax, facts.pageMax);
      const idLessThan = params.id('idLessThan');
      const wanted = FILTERS.flatMap((name) => {
        const value = params.optional(name);
        return value === undefined ? [] : [[name, value] as const];
      });
      const page = index.page({
        startTime,
        endTime,
        limit,
        ...(idLessThan === undefined ? {} : { idLessThan }),
        ...(wanted.length === 0 ? {} : { filter: (r) => wanted.every(([name, value]) => r.record[name] === value) }),
      });
      const minAdvId = page.length === 0 ? '' : index.recordAt(page[page.length - 1] as number).id;
      return `{"advList":${recordsJson(index, page, moved)},"minAdvId":${JSON.stringify(minAdvId)}}`;
    },
  };
}
