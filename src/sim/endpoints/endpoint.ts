import type { Params } from '../params.js';
import type { PartitionIndex } from '../store.js';

export interface EndpointContext {
  params: Params;
  /** Server time, Unix ms. */
  now: number;
  /** Whether withdrawals that change status while the simulator runs have reached their final status. */
  moved: boolean;
  /** Draws whether an empty fill-history answer comes as `data: null` this time (docs/platform.md, "Fills"). */
  emptyAsNull(): boolean;
}

/** One served path: whether it is signed, its per-key limit before `--rate-scale`, and its `data` as JSON. */
export interface Endpoint {
  path: string;
  signed: boolean;
  /** Requests per second per API key (docs/platform.md, "Windows, pages and rates"); undefined when not limited. */
  rate?: number;
  /** The limit counts requests per IP address, not per key (public market data). */
  perIp?: boolean;
  handle(context: EndpointContext): string;
}

/** The JSON array of the records at `indexes`, as served now. */
export function recordsJson(index: PartitionIndex, indexes: readonly number[], moved: boolean): string {
  let out = '[';
  for (let i = 0; i < indexes.length; i++) out += (i === 0 ? '' : ',') + index.jsonAt(indexes[i] as number, moved);
  return `${out}]`;
}
