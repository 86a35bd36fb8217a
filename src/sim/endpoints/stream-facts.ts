import { STREAMS } from '../../streams/index.js';
import type { PagedStream, SnapshotStream } from '../../streams/manifest.js';
import {
  readFor,
  type AccountMode,
  type PagedStreamDef,
  type PartitionDef,
  type SnapshotPart,
} from '../../streams/stream.js';

/**
 * What the simulator serves of each stream's endpoint, read from the stream's definition (src/streams/<stream>.ts):
 * its path, its rate per key, its widest window and its largest page, so that a stream's endpoint facts are written
 * once. What the definitions do not hold stays with each endpoint: the platform's default page, how it words a refused
 * window, its filters.
 */
export interface EndpointFacts {
  path: string;
  /** Requests per second per API key. */
  rate: number;
  /** The widest window it accepts, in days. */
  windowDays: number;
  /** The largest page it serves. */
  pageMax: number;
}

const paged = (name: PagedStream): PagedStreamDef => STREAMS.find((s) => s.name === name) as PagedStreamDef;

/**
 * A paged stream's endpoint; with `partition`, the endpoint of that partition when it has its own (the unified
 * account's funding records).
 *
 * @example
 * pagedFacts('deposits') // => { path: '/api/v2/spot/wallet/deposit-records', rate: 10, windowDays: 90, pageMax: 100 }
 */
export function pagedFacts(name: PagedStream, partition?: string): EndpointFacts {
  const stream = paged(name);
  const partitions = stream.partitions as readonly PartitionDef[];
  const own = partition === undefined ? undefined : partitions.find((p) => p.name === partition)?.endpoint;
  return {
    path: own?.path ?? stream.path,
    rate: own?.ratePerSecond ?? stream.ratePerSecond,
    windowDays: stream.maxWindowDays,
    pageMax: stream.pageLimit,
  };
}

/** A snapshot stream's part of `name` read for an account of `mode`: its path and rate. */
export function partFacts(
  stream: SnapshotStream,
  name: string,
  mode: AccountMode = 'classic',
): { path: string; rate: number } {
  const def = STREAMS.find((s) => s.name === stream);
  const parts = def?.kind === 'snapshot' ? (def.parts as readonly SnapshotPart[]) : [];
  const part = parts.find((p) => p.name === name && readFor(p, mode));
  if (part === undefined) throw new Error(`${stream} has no part ${name} for a ${mode} account`);
  return { path: part.path, rate: part.ratePerSecond };
}
