import { checkRecords } from '../extract/records.js';
import type { StreamDef } from '../streams/stream.js';
import { timestampTz } from '../warehouse/time-values.js';
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
export async function readmitQuarantined(warehouse: Pick<Warehouse, 'transaction'>, streams: readonly StreamDef[]): Promise<Readmitted> {
  return warehouse.transaction(async (c) => {
    const held = (
      await c.runAndReadAll(
        `SELECT q.account, q.stream, q.partition, q.key, q.payload, epoch_ms(q.fetched_at) AS fetched,
           list({'start': epoch_ms(v.window_start), 'end': epoch_ms(v.window_end)}) FILTER (WHERE v.window_start IS NOT NULL) AS windows
         FROM quarantine AS q
         LEFT JOIN coverage AS v ON v.account = q.account AND v.stream = q.stream AND v.partition = q.partition
         GROUP BY ALL`,
      )
    ).getRowObjectsJS();
    const readmitted: Readmitted = {};
    for (const row of held) {
      const stream = streams.find((s) => s.name === row['stream']);
      if (stream === undefined) continue;
      let record: unknown;
      try {
        record = JSON.parse(String(row['payload']));
      } catch {
        continue;
      }
      const key = String(row['key']);
      const snapshotAt = stream.kind === 'snapshot' ? Number(/^(\d+):/.exec(key)?.[1]) : undefined;
      if (snapshotAt !== undefined && !Number.isFinite(snapshotAt)) continue;
      const checked = checkRecords(stream, [record], {
        time: stream.kind === 'paged' ? stream.time : () => snapshotAt as number,
        ...(snapshotAt === undefined ? {} : { keyPrefix: `${snapshotAt}:` }),
        seenFields: new Set(),
      });
      const load = checked.load[0];
      if (load === undefined) continue;
      const windows = (row['windows'] ?? []) as { start: unknown; end: unknown }[];
      const read = snapshotAt !== undefined || windows.some((w) => load.ts >= Number(w.start) && load.ts < Number(w.end));
      if (!read) continue;
      const fetched = timestampTz(Number(row['fetched']));
      // A record a later run loaded already keeps its row; its quarantine entry goes all the same.
      const inserted = await c.runAndReadAll(
        `INSERT INTO raw_records (account, stream, partition, key, ts, payload, first_fetched_at, last_fetched_at)
         VALUES ($account, $stream, $partition, $key, $ts, $payload::JSON, $fetched, $fetched)
         ON CONFLICT (account, stream, partition, key) DO NOTHING RETURNING key`,
        { account: String(row['account']), stream: stream.name, partition: String(row['partition']), key: load.key, ts: timestampTz(load.ts), payload: load.payload, fetched },
      );
      await c.run('DELETE FROM quarantine WHERE account = $account AND stream = $stream AND partition = $partition AND key = $key', {
        account: String(row['account']),
        stream: stream.name,
        partition: String(row['partition']),
        key,
      });
      if (inserted.getRows().length === 0) continue;
      // For the next transform, as the raw writer notes each page's (README, "How the transform works").
      await c.run('INSERT INTO pending_changes VALUES ($account, $stream, $partition, $key)', {
        account: String(row['account']),
        stream: stream.name,
        partition: String(row['partition']),
        key: load.key,
      });
      readmitted[stream.name] = (readmitted[stream.name] ?? 0) + 1;
    }
    return readmitted;
  });
}
