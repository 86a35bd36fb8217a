import { DAY_MS } from '../data/model.js';
import { checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';

const FILTERS = ['status', 'side', 'coin', 'fiat', 'advNo'] as const;

/**
 * GET /api/v2/p2p/advList (spec section 1): startTime required; endTime optional, at most 90 days after it
 * (omitted, it is taken as startTime + 90 days); newest first by creation time; `{advList, minAdvId}`.
 * The spec gives no maximum page size; the simulator holds it to the default, 100.
 */
export function advListEndpoint(index: PartitionIndex): Endpoint {
  return {
    path: '/api/v2/p2p/advList',
    signed: true,
    rate: 10,
    handle({ params, moved }) {
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', false) ?? startTime + 90 * DAY_MS;
      checkWindow(startTime, endTime, 90, 'exceed');
      const limit = params.limit(100, 100);
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
