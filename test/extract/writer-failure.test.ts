import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { futuresFills } from '../../src/streams/futures-fills.js';
import { planNightly } from '../../src/pipeline/nightly-range.js';
import { createRawWriter, withCheckpointsBetweenBatches, type PageCommit } from '../../src/load/raw-writer.js';
import { startRun } from '../../src/reads/runs.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

const DAY = 86_400_000;
const D0 = Date.UTC(2025, 0, 1);
let warehouse: Warehouse;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
});
afterEach(() => dispose());

const page = (partition: string, start: number, end: number, key: string, done: boolean): PageCommit => ({
  stream: 'futures_fills',
  partition,
  window: { start, end },
  records: key === '' ? [] : [{ key, ts: start + 1, payload: `{"tradeId":"${key}"}` }],
  cursor: done ? null : `${key}0`,
  done,
  tie: false,
  drift: [],
  quarantine: [],
});

describe('the loader after a failed batch', () => {
  it('writes nothing more: a later page must not carry the window past the lost one', async () => {
    const real = warehouse.transaction.bind(warehouse);
    let calls = 0;
    const failing = {
      ...warehouse,
      transaction: <T>(work: Parameters<Warehouse['transaction']>[0]): Promise<T> => {
        calls++;
        return calls === 1
          ? Promise.reject(new Error('IO Error: No space left on device'))
          : (real(work) as Promise<T>);
      },
    } as Warehouse;
    const writer = await createRawWriter(failing, { account: 'a', runId: 'r', clock: () => D0 });
    const first = writer.commit(page('USDT-FUTURES', D0, D0 + DAY, '1', false));
    const second = writer.commit(page('USDT-FUTURES', D0, D0 + DAY, '2', true));
    await expect(first).rejects.toThrow('No space left on device');
    await expect(second).rejects.toThrow('No space left on device');
    await expect(writer.commit(page('USDT-FUTURES', D0 + DAY, D0 + 2 * DAY, '3', true))).rejects.toThrow(
      'No space left on device',
    );
    expect(
      await rows(warehouse, 'SELECT count(*) AS n FROM raw_records UNION ALL SELECT count(*) FROM coverage'),
    ).toEqual([{ n: '0' }, { n: '0' }]);
  });
});

describe('one commit queue for every account', () => {
  it("stops only the account whose page fails: another account's pages of the same batch commit", async () => {
    const real = warehouse.transaction.bind(warehouse);
    // A disk that refuses any transaction with a record of key 'bad', as a bad page would be refused.
    let attempts = 0;
    const picky = {
      ...warehouse,
      transaction: <T>(work: Parameters<Warehouse['transaction']>[0]): Promise<T> =>
        real(async (c) => {
          attempts++;
          const result = await work(c);
          const bad = await c.runAndReadAll("SELECT count(*) FROM raw_records WHERE key = 'bad'");
          if (Number(bad.getRows()[0]?.[0]) > 0) throw new Error('refused');
          return result;
        }) as Promise<T>,
    } as Warehouse;
    const a = await createRawWriter(picky, { account: 'a', runId: 'r', clock: () => D0 });
    const b = await createRawWriter(picky, { account: 'b', runId: 'r', clock: () => D0 });
    // Both accounts' pages wait behind the first, then go as one batch, which fails for a's page.
    const first = b.commit(page('USDT-FUTURES', D0, D0 + DAY, '1', false));
    const bad = a.commit(page('USDT-FUTURES', D0, D0 + DAY, 'bad', true));
    const good = b.commit(page('USDT-FUTURES', D0, D0 + DAY, '2', true));
    await first;
    await expect(bad).rejects.toThrow('refused');
    await good;
    expect(attempts).toBe(4);
    await expect(a.commit(page('USDT-FUTURES', D0 + DAY, D0 + 2 * DAY, '3', true))).rejects.toThrow('refused');
    expect(await rows(warehouse, 'SELECT account, key FROM raw_records ORDER BY ALL')).toEqual([
      { account: 'b', key: '1' },
      { account: 'b', key: '2' },
    ]);
    expect(await rows(warehouse, 'SELECT account, status FROM coverage ORDER BY ALL')).toEqual([
      { account: 'b', status: 'done' },
    ]);
  });
});

describe('nightly after a run that left a window unfinished', () => {
  it('starts at the unfinished window (less the look-back), not after the windows done behind it', async () => {
    const writer = await createRawWriter(warehouse, { account: 'default', runId: 'r', clock: () => D0 });
    for (const partition of ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']) {
      // Window 1 stopped half way; windows 2 to 4 were done by the other workers.
      await writer.commit(
        page(partition, D0, D0 + 7 * DAY, partition === 'USDT-FUTURES' ? '9' : '', partition !== 'USDT-FUTURES'),
      );
      for (let w = 1; w < 4; w++)
        await writer.commit(page(partition, D0 + w * 7 * DAY, D0 + (w + 1) * 7 * DAY, '', true));
    }
    await startRun(warehouse.connection, {
      account: 'default',
      command: 'run year-end',
      from: D0,
      to: D0 + 28 * DAY,
      now: D0 + 30 * DAY,
      stage: 'extract',
    });
    const plan = await planNightly(warehouse, {
      account: 'default',
      streams: [futuresFills],
      lookBackDays: 3,
      now: D0 + 40 * DAY,
      refreshPending: true,
    });
    expect(plan.range).toEqual({ start: D0 - 3 * DAY, end: D0 + 40 * DAY });
  });
});

describe('checkpoints between batches', () => {
  /** A page of one snapshot record (a stream not typed at load) whose payload is about `mb` MB. */
  const big = (key: string, mb: number): PageCommit => ({
    stream: 'account_balances',
    partition: '',
    records: [{ key, ts: D0, payload: JSON.stringify({ key, filler: 'x'.repeat(mb * 1024 * 1024) }) }],
    cursor: null,
    done: true,
    tie: false,
    drift: [],
    quarantine: [],
  });

  it('checkpoints after every 16 MB of committed payload, and a failed CHECKPOINT stops every writer with its error', async () => {
    const real = warehouse.exclusive.bind(warehouse);
    const checkpoints: number[] = [];
    const disk = {
      ...warehouse,
      exclusive: <T>(work: Parameters<Warehouse['exclusive']>[0]): Promise<T> =>
        real(async (c) => {
          const run = c.run.bind(c) as (...args: unknown[]) => ReturnType<typeof c.run>;
          const watched = Object.assign(Object.create(c) as typeof c, {
            run: async (sql: string, ...rest: unknown[]) => {
              if (sql !== 'CHECKPOINT') return run(sql, ...rest);
              const held = Number((await c.runAndReadAll('SELECT count(*) FROM raw_records')).getRows()[0]?.[0]);
              checkpoints.push(held);
              if (checkpoints.length === 2)
                throw new Error('FATAL Error: Failed to create checkpoint because of error: simulated');
              return run(sql);
            },
          });
          return work(watched);
        }) as Promise<T>,
    } as Warehouse;
    const a = await createRawWriter(disk, { account: 'a', runId: 'r', clock: () => D0 });
    const b = await createRawWriter(disk, { account: 'b', runId: 'r', clock: () => D0 });
    // One page at a time: 5 MB each, so 16 MB is passed by the fourth page, then by the eighth.
    for (let i = 1; i <= 7; i++) await (i % 2 === 0 ? b : a).commit(big(String(i), 5));
    expect(checkpoints).toEqual([4]);
    await b.commit(big('8', 5));
    // The eighth page committed before the CHECKPOINT after it failed; nothing is written after it, by either account.
    await expect(a.commit(big('9', 1))).rejects.toThrow('Failed to create checkpoint because of error: simulated');
    await expect(b.commit(big('10', 1))).rejects.toThrow('Failed to create checkpoint because of error: simulated');
    expect(checkpoints).toEqual([4, 8]);
    expect(await rows(warehouse, 'SELECT count(*) AS n FROM raw_records')).toEqual([{ n: '8' }]);
  });

  it("turns DuckDB's automatic checkpoint off while the work runs, and back on after it, even when it fails", async () => {
    const threshold = async () => (await rows(warehouse, "SELECT current_setting('checkpoint_threshold') AS t"))[0];
    expect(await threshold()).toEqual({ t: '16.0 MiB' });
    expect(await withCheckpointsBetweenBatches(warehouse, threshold)).toEqual({ t: '931.3 GiB' });
    await expect(
      withCheckpointsBetweenBatches(warehouse, () => Promise.reject(new Error('the extraction failed'))),
    ).rejects.toThrow('the extraction failed');
    expect(await threshold()).toEqual({ t: '16.0 MiB' });
  });
});
