import { badParam } from '../api-error.js';
import { checkDepth, checkWindow, type WindowStyle } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import type { EndpointFacts } from './stream-facts.js';

/** An endpoint's facts (its stream's: stream-facts.ts), and how it reads what it is asked. */
export interface RecordListSpec extends EndpointFacts {
  style: WindowStyle;
  pageDefault: number;
  /** The parameter that selects a partition, when the endpoint has partitions; it is then required. */
  partitionParam?: string;
  /** Optional equality filters: query parameter -> record field. */
  filters?: Readonly<Record<string, string>>;
  /** How many days before the server's clock a window may start (params.ts, checkDepth); undefined: any. */
  depthDays?: number | undefined;
}

/**
 * A record-list endpoint answering a flat array newest first, with startTime and endTime required and
 * idLessThan = the last record's id: deposit-records and the tax-record endpoints (docs/platform.md, "Windows,
 * pages and rates").
 */
export function recordListEndpoint(spec: RecordListSpec, partitions: ReadonlyMap<string, PartitionIndex>): Endpoint {
  return {
    path: spec.path,
    signed: true,
    rate: spec.rate,
    handle({ params, now, moved }) {
      const name = spec.partitionParam === undefined ? '' : params.required(spec.partitionParam).toUpperCase();
      const index = partitions.get(name);
      if (index === undefined) throw badParam(spec.partitionParam ?? 'partition');
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', true);
      checkWindow(startTime, endTime, spec.windowDays, spec.style);
      checkDepth(startTime, now, spec.depthDays);
      const limit = params.limit(spec.pageDefault, spec.pageMax);
      const idLessThan = params.id('idLessThan');
      const wanted = Object.entries(spec.filters ?? {}).flatMap(([param, field]) => {
        const value = params.optional(param);
        return value === undefined ? [] : [[field, value] as const];
      });
      const page = index.page({
        startTime,
        endTime,
        limit,
        ...(idLessThan === undefined ? {} : { idLessThan }),
        ...(wanted.length === 0 ? {} : { filter: (r) => wanted.every(([field, value]) => r.record[field] === value) }),
      });
      return recordsJson(index, page, moved);
    },
  };
}
