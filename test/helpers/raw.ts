import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dataset, PagedStream } from '../../src/sim/data/types.js';
import { STREAMS } from '../../src/streams/index.js';
import { createRawWriter } from '../../src/load/raw-writer.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';

/** A record for raw_records: stream, partition, its key and time, and the payload exactly as served. */
export interface RawInput {
  stream: string;
  partition?: string;
  key: string;
  ts: number;
  payload: Record<string, unknown>;
  account?: string;
}

/**
 * Loads hand-written records through the real loader, as extraction would: a page per record, handed over together,
 * so that the loader commits them in batches as it does a run's pages (src/load/raw-writer.ts), in their order.
 * Awaited one by one, each page was a transaction of its own: about 18 ms each, a second for the golden records.
 */
export async function loadRaw(warehouse: Warehouse, records: readonly RawInput[]): Promise<void> {
  const byAccount = new Map<string, RawInput[]>();
  for (const r of records) byAccount.set(r.account ?? 'default', [...(byAccount.get(r.account ?? 'default') ?? []), r]);
  for (const [account, list] of byAccount) {
    const writer = await createRawWriter(warehouse, { account, runId: 'test', clock: () => Date.UTC(2026, 0, 2) });
    await Promise.all(
      list.map((r) =>
        writer.commit({
          stream: r.stream,
          partition: r.partition ?? '',
          records: [{ key: r.key, ts: r.ts, payload: JSON.stringify(r.payload) }],
          cursor: null,
          done: true,
          tie: false,
          drift: [],
          quarantine: [],
        }),
      ),
    );
  }
}

/**
 * A warehouse of this release with nothing in it, made once per test process (a vitest worker) in the run's
 * temporary folder, removed after the run (test/setup/scratch.ts): tempWarehouse copies it. Opening a new file
 * makes every table, macro and comment (0.2 s of CPU); opening the copy finds them made (0.04 s). The copy is
 * opened as any warehouse is, so an opening that finds something to bring up to date still does it.
 */
let emptyWarehouse: Promise<string> | undefined;

function emptyWarehouseFile(): Promise<string> {
  if (emptyWarehouse === undefined) {
    const making = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'lp-empty-'));
      const path = join(dir, 'w.duckdb');
      // Closed with DuckDB's checkpoint: the file holds it all, with no log beside it.
      await (await openWarehouse(path)).close();
      return path;
    })();
    // One that failed is made again by the next test, which then fails for its own reason, not this one's.
    making.catch(() => {
      if (emptyWarehouse === making) emptyWarehouse = undefined;
    });
    emptyWarehouse = making;
  }
  return emptyWarehouse;
}

/** A fresh warehouse in a temporary folder, removed by `dispose`. */
export async function tempWarehouse(): Promise<{ warehouse: Warehouse; dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-wh-'));
  await copyFile(await emptyWarehouseFile(), join(dir, 'w.duckdb'));
  const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
  return {
    warehouse,
    dir,
    dispose: async () => {
      // The folder goes next: DuckDB's checkpoint as it closes (0.15-0.2 s of CPU after a transform) would write
      // a file no one reads. A warehouse the test closed already refuses the PRAGMA, and is closed as before.
      await warehouse.connection.run('PRAGMA disable_checkpoint_on_shutdown').catch(() => undefined);
      await warehouse.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Rows of a query as plain objects with DuckDB's own text forms (exact decimals). */
export async function rows(warehouse: Warehouse, sql: string): Promise<Record<string, string | null>[]> {
  const reader = await warehouse.connection.runAndReadAll(sql);
  const names = reader.columnNames();
  return reader
    .getRows()
    .map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] === null ? null : String(row[i])])));
}

/**
 * Loads the records of `[from, to)` of a generated data set (in their final form) through the real loader, one
 * page per partition, as an extraction of that range would leave them.
 */
export async function loadDataset(
  warehouse: Warehouse,
  dataset: Dataset,
  from: number,
  to: number,
  account = 'default',
): Promise<void> {
  const writer = await createRawWriter(warehouse, { account, runId: 'test', clock: () => Date.UTC(2026, 0, 2) });
  const pages: Promise<void>[] = [];
  for (const stream of STREAMS) {
    if (stream.kind !== 'paged') continue;
    for (const partition of dataset.streams[stream.name as PagedStream]) {
      const records = partition.records
        .filter((r) => r.ts >= from && r.ts < to)
        .map((r) => ({
          key: String(r.record[stream.keyField]),
          ts: stream.time(r.record),
          payload: JSON.stringify(r.record),
        }));
      pages.push(
        writer.commit({
          stream: stream.name,
          partition: partition.name,
          records,
          cursor: null,
          done: true,
          tie: false,
          drift: [],
          quarantine: [],
        }),
      );
    }
  }
  // Handed over together, committed in batches as a run's pages are (loadRaw).
  await Promise.all(pages);
}
