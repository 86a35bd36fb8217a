import type { DuckDBConnection } from '@duckdb/node-api';
import type { Dataset, PagedStream } from '../../src/sim/data/types.js';
import { STREAMS } from '../../src/streams/index.js';
import type { StreamDef } from '../../src/streams/stream.js';

/** `partition/key -> payload` of the records of `[from, to)` the simulator serves in their final form. */
export function truthInRange(dataset: Dataset, stream: PagedStream, from: number, to: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const partition of dataset.streams[stream]) {
    for (const r of partition.records) if (r.ts >= from && r.ts < to) out.set(`${partition.name}/${r.id}`, r.record);
  }
  return out;
}

/**
 * What a run that computes gains reads of a stream: a stream that carries lots from the account's opening
 * (docs/history.md), any other over the range.
 */
export function truthOfRun(dataset: Dataset, stream: PagedStream, from: number, to: number): Map<string, unknown> {
  const lots = (STREAMS as readonly StreamDef[]).some(
    (s) => s.name === stream && s.kind === 'paged' && s.carriesLots === true,
  );
  return truthInRange(dataset, stream, lots ? Math.min(from, dataset.openedAt) : from, to);
}

/** `partition/key -> payload` of one stream in raw_records, failing on any duplicate. */
export async function loaded(
  connection: DuckDBConnection,
  stream: string,
  account = 'default',
): Promise<Map<string, unknown>> {
  const reader = await connection.runAndReadAll(
    'SELECT partition, key, payload::VARCHAR AS payload FROM raw_records WHERE account = $account AND stream = $stream',
    { account, stream },
  );
  const out = new Map<string, unknown>();
  for (const row of reader.getRowObjectsJS()) {
    const id = `${String(row['partition'])}/${String(row['key'])}`;
    if (out.has(id)) throw new Error(`duplicate ${id}`);
    out.set(id, JSON.parse(String(row['payload'])));
  }
  return out;
}
