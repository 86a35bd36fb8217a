import { DAY_MS } from '../data/types.js';
import { badParam } from '../api-error.js';
import { checkDepth, checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import { pagedFacts } from './stream-facts.js';

const DEMO_PRODUCT_TYPES = new Set(['SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES']);
const WEEK_MS = 7 * DAY_MS;

/**
 * GET /api/v2/mix/order/fill-history (spec section 19): `{fillList, endId}` with endId the last fill's
 * tradeId; a window of at most one week, with an omitted end one week after the start and an omitted start
 * one week before the end. Demo product types have no data. An empty answer is `fillList: []` with
 * `endId: ""`, or now and then `data: null` (docs/platform.md, "Fills"). A window that starts more than `depthDays`
 * before the server's clock is refused with 43111 (params.ts, checkDepth).
 */
export function fillHistoryEndpoint(
  partitions: ReadonlyMap<string, PartitionIndex>,
  reach: { depthDays?: number | undefined } = {},
): Endpoint {
  const facts = pagedFacts('futures_fills');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle({ params, now, moved, emptyAsNull }) {
      // The example requests write product types in lower case; the live service accepts both.
      const productType = params.required('productType').toUpperCase();
      const index = partitions.get(productType);
      if (index === undefined && !DEMO_PRODUCT_TYPES.has(productType)) throw badParam('productType');
      const start = params.time('startTime', false);
      const end = params.time('endTime', false);
      const endTime = end ?? (start === undefined ? now : start + WEEK_MS);
      const startTime = start ?? endTime - WEEK_MS;
      checkWindow(startTime, endTime, facts.windowDays, 'interval');
      checkDepth(startTime, now, reach.depthDays);
      const limit = params.limit(100, facts.pageMax);
      const idLessThan = params.id('idLessThan');
      const symbol = params.optional('symbol');
      const orderId = params.optional('orderId');
      const page =
        index === undefined
          ? []
          : index.page({
              startTime,
              endTime,
              limit,
              ...(idLessThan === undefined ? {} : { idLessThan }),
              ...(symbol === undefined && orderId === undefined
                ? {}
                : {
                    filter: (r) =>
                      (symbol === undefined || r.record['symbol'] === symbol.toUpperCase()) &&
                      (orderId === undefined || r.record['orderId'] === orderId),
                  }),
            });
      if (page.length === 0) return emptyAsNull() ? 'null' : '{"fillList":[],"endId":""}';
      const last = index?.recordAt(page[page.length - 1] as number).id ?? '';
      return `{"fillList":${recordsJson(index as PartitionIndex, page, moved)},"endId":${JSON.stringify(last)}}`;
    },
  };
}
