import type { DuckDBConnection } from '@duckdb/node-api';
import { checkRecords } from '../extract/records.js';
import { partKeyed, type StreamDef } from '../streams/stream.js';
import type { LoadRecord } from '../load/raw-writer.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** Records moved from `quarantine` to `raw_records`, per stream. */
export type Readmitted = Record<string, number>;

/**
 * Moves the quarantined records that the streams' schemas accept now (a field a release learned to read, such
 * as a P2P record's `total` or an empty `totalDeductionFee`) into `raw_records`, in one transaction, so that the
 * transform that follows books them. A paged stream's record goes back only when its time lies in a window
 * the account read of that stream and partition (one outside them would not have been loaded); a snapshot's
 * keeps the snapshot time its key begins with. Those still refused stay in quarantine.
 *
 * @example
 * const readmitted = await readmitQuarantined(warehouse, STREAMS); // { p2p_tax_records: 3 }
 */
export async function readmitQuarantined(
  warehouse: Pick<Warehouse, 'transaction'>,
  streams: readonly StreamDef[],
): Promise<Readmitted> {
  return warehouse.transaction(async (c) => {
    const readmitted: Readmitted = {};
    for (const row of await readQuarantine(c)) {
      const stream = streams.find((s) => s.name === row['stream']);
      if (stream === undefined) continue;
      const load = acceptedNow(stream, row);
      if (load === undefined) continue;
      if (await readmit(c, stream, row, load)) readmitted[stream.name] = (readmitted[stream.name] ?? 0) + 1;
    }
    return readmitted;
  });
}

/** A row of readQuarantine: the quarantine's columns, `fetched` in Unix ms, and `windows` read. */
type QuarantineRow = Record<string, unknown>;

/** Every quarantined record, with the windows the account read of its stream and partition. */
async function readQuarantine(c: DuckDBConnection): Promise<QuarantineRow[]> {
  const reader = await c.runAndReadAll(
    `SELECT q.account, q.stream, q.partition, q.key, q.payload, epoch_ms(q.fetched_at) AS fetched,
       list({'start': epoch_ms(v.window_start), 'end': epoch_ms(v.window_end)}) FILTER (WHERE v.window_start IS NOT NULL) AS windows
     FROM quarantine AS q
     LEFT JOIN coverage AS v ON v.account = q.account AND v.stream = q.stream AND v.partition = q.partition
     GROUP BY ALL`,
  );
  return reader.getRowObjectsJS();
}

/**
 * The record of a quarantine row as it would load now, when the stream's schema accepts it and it lies in a
 * window read (a snapshot's always does); undefined when it stays in quarantine.
 */
function acceptedNow(stream: StreamDef, row: QuarantineRow): LoadRecord | undefined {
  let record: unknown;
  try {
    record = JSON.parse(String(row['payload']));
  } catch {
    return undefined;
  }
  const snapshotAt = stream.kind === 'snapshot' ? Number(/^(\d+):/.exec(String(row['key']))?.[1]) : undefined;
  if (snapshotAt !== undefined && !Number.isFinite(snapshotAt)) return undefined;
  const part = stream.kind === 'snapshot' ? stream.parts.find((p) => p.name === String(row['partition'])) : undefined;
  const checked = checkRecords(
    stream.kind === 'snapshot' && part !== undefined ? partKeyed(stream, part) : stream,
    [record],
    {
      time: stream.kind === 'paged' ? stream.time : () => snapshotAt as number,
      ...(snapshotAt === undefined ? {} : { keyPrefix: `${snapshotAt}:` }),
      seenFields: new Set(),
    },
  );
  const load = checked.load[0];
  if (load === undefined) return undefined;
  const windows = (row['windows'] ?? []) as { start: unknown; end: unknown }[];
  const read = snapshotAt !== undefined || windows.some((w) => load.ts >= Number(w.start) && load.ts < Number(w.end));
  return read ? load : undefined;
}

/** Moves one record from quarantine to raw_records; true when it was not loaded already. */
async function readmit(c: DuckDBConnection, stream: StreamDef, row: QuarantineRow, load: LoadRecord): Promise<boolean> {
  const fetched = timestampTz(Number(row['fetched']));
  // A record a later run loaded already keeps its row; its quarantine entry goes all the same.
  const inserted = await c.runAndReadAll(
    `INSERT INTO raw_records (account, stream, partition, key, ts, payload, first_fetched_at, last_fetched_at)
     VALUES ($account, $stream, $partition, $key, $ts, $payload::JSON, $fetched, $fetched)
     ON CONFLICT (account, stream, partition, key) DO NOTHING RETURNING key`,
    {
      account: String(row['account']),
      stream: stream.name,
      partition: String(row['partition']),
      key: load.key,
      ts: timestampTz(load.ts),
      payload: load.payload,
      fetched,
    },
  );
  await c.run(
    'DELETE FROM quarantine WHERE account = $account AND stream = $stream AND partition = $partition AND key = $key',
    {
      account: String(row['account']),
      stream: stream.name,
      partition: String(row['partition']),
      key: String(row['key']),
    },
  );
  if (inserted.getRows().length === 0) return false;
  // For the next transform, as the raw writer notes each page's (docs/transform.md).
  await c.run('INSERT INTO pending_changes VALUES ($account, $stream, $partition, $key)', {
    account: String(row['account']),
    stream: stream.name,
    partition: String(row['partition']),
    key: load.key,
  });
  return true;
}
