import { badParam } from '../api-error.js';
import { checkDepth, checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import { pagedFacts } from './stream-facts.js';

/**
 * GET /api/v2/tax/margin-record (spec section 18): flat array, newest first, idLessThan = last id.
 * marginType is `crossed` or `isolated` on the live service and means `crossed` when omitted; the spec's
 * `cross` is refused, as a strict stand-in for the live service (docs/platform.md, "Windows, pages and rates"). A
 * window that starts more than `depthDays` before the server's clock is refused with 43111 (params.ts, checkDepth).
 */
export function marginRecordEndpoint(
  partitions: ReadonlyMap<string, PartitionIndex>,
  windowDays: number,
  reach: { depthDays?: number | undefined } = {},
): Endpoint {
  const facts = pagedFacts('margin_records');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle({ params, now, moved }) {
      const marginType = params.optional('marginType') ?? 'crossed';
      const index = partitions.get(marginType);
      if (index === undefined) throw badParam('marginType');
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', true);
      checkWindow(startTime, endTime, windowDays, 'interval');
      checkDepth(startTime, now, reach.depthDays);
      const limit = params.limit(500, facts.pageMax);
      const idLessThan = params.id('idLessThan');
      const coin = params.optional('coin');
      const page = index.page({
        startTime,
        endTime,
        limit,
        ...(idLessThan === undefined ? {} : { idLessThan }),
        ...(coin === undefined ? {} : { filter: (r) => r.record['coin'] === coin }),
      });
      return recordsJson(index, page, moved);
    },
  };
}
