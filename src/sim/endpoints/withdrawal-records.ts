import { checkDepth, checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import { pagedFacts } from './stream-facts.js';

/**
 * GET /api/v2/spot/wallet/withdrawal-records (spec section 8): startTime and endTime required, at most 90
 * days apart (40705), limit default 20 and at most 100, newest first, idLessThan = the last orderId. A window that
 * starts more than `depthDays` before the server's clock is refused with 43111 (params.ts, checkDepth).
 */
export function withdrawalRecordsEndpoint(
  index: PartitionIndex,
  reach: { depthDays?: number | undefined } = {},
): Endpoint {
  const facts = pagedFacts('withdrawals');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle({ params, now, moved }) {
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', true);
      checkWindow(startTime, endTime, facts.windowDays, 'exceed');
      checkDepth(startTime, now, reach.depthDays);
      const limit = params.limit(20, facts.pageMax);
      const idLessThan = params.id('idLessThan');
      const coin = params.optional('coin');
      const clientOid = params.optional('clientOid');
      const orderId = params.optional('orderId');
      const filtered = coin !== undefined || clientOid !== undefined || orderId !== undefined;
      const page = index.page({
        startTime,
        endTime,
        limit,
        ...(idLessThan === undefined ? {} : { idLessThan }),
        ...(filtered
          ? {
              filter: (r) =>
                (coin === undefined || r.record['coin'] === coin.toUpperCase()) &&
                (clientOid === undefined || r.record['clientOid'] === clientOid) &&
                (orderId === undefined || r.record['orderId'] === orderId),
            }
          : {}),
      });
      return recordsJson(index, page, moved);
    },
  };
}
