import type { DuckDBConnection } from '@duckdb/node-api';
import type { Dataset, PagedStream } from '../../src/sim/data/model.js';

/** `partition/key -> payload` of the records of `[from, to)` the simulator serves in their final form. */
export function truthInRange(dataset: Dataset, stream: PagedStream, from: number, to: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const partition of dataset.streams[stream]) {
    for (const r of partition.records) if (r.ts >= from && r.ts < to) out.set(`${partition.name}/${r.id}`, r.record);
  }
  return out;
}

/** `partition/key -> payload` of one stream in raw_records, failing on any duplicate. */
export async function loaded(connection: DuckDBConnection, stream: string, account = 'default'): Promise<Map<string, unknown>> {
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
