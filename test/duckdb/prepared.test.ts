import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preparedOn, runPrepared } from '../../src/duckdb/prepared.js';

let instance: DuckDBInstance;
let c: DuckDBConnection;
beforeEach(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  c = await instance.connect();
  await c.run(
    'CREATE TABLE spans (symbol VARCHAR, start_ms BIGINT, candles INTEGER, missing BIGINT[], PRIMARY KEY (symbol, start_ms))',
  );
  await c.run('CREATE TEMP TABLE stage (symbol VARCHAR, start_ms BIGINT, candles INTEGER)');
});
afterEach(() => {
  c.closeSync();
  instance.closeSync();
});

/** Thirty transactions, each staging 50 rows of new keys by appender and running `load` on them. */
async function thirtyBatches(load: () => Promise<void>): Promise<void> {
  for (let batch = 0; batch < 30; batch++) {
    await c.run('BEGIN TRANSACTION');
    const stage = await c.createAppender('stage');
    for (let i = 0; i < 50; i++) {
      stage.appendVarchar('BTCUSDT');
      stage.appendBigInt(BigInt(batch * 50 + i));
      stage.appendInteger(i);
      stage.endRow();
    }
    stage.flushSync();
    stage.closeSync();
    await load();
    await c.run('DELETE FROM stage');
    await c.run('COMMIT');
  }
}

const spansHeld = async () =>
  (await c.runAndReadAll('SELECT count(*), sum(start_ms), sum(candles) FROM spans')).getRows()[0];

describe('statements prepared once per connection', () => {
  it('write each row as given when run again: a DELETE of a key and an INSERT of values, missing hours bound as one text', async () => {
    const drop = 'DELETE FROM spans WHERE symbol = $symbol AND start_ms = $start';
    const record = `INSERT INTO spans VALUES ($symbol, $start, $n,
      CASE WHEN $hours = '' THEN NULL ELSE list_transform(string_split($hours, ','), lambda h: h::BIGINT) END)`;
    // 250 keys written three times over: the last write of each key is the one held.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 250; i++) {
        const key = { symbol: 'BTCUSDT', start: BigInt(i) };
        await c.run('BEGIN TRANSACTION');
        await runPrepared(c, drop, key);
        await runPrepared(c, record, { ...key, n: round * 1000 + i, hours: i % 3 === 0 ? '' : `${i},${i + round}` });
        await c.run('COMMIT');
      }
    }
    const held = (
      await c.runAndReadAll('SELECT count(*), sum(candles), count(missing), sum(list_sum(missing)) FROM spans')
    ).getRows()[0];
    // Candles 2000..2249 (sum 2000*250 + 31125); 166 spans with missing hours, each i + (i + 2).
    const missing = [...Array(250).keys()].filter((i) => i % 3 !== 0);
    expect(held).toEqual([
      250n,
      BigInt(2000 * 250 + 31_125),
      BigInt(missing.length),
      BigInt(missing.reduce((sum, i) => sum + 2 * i + 2, 0)),
    ]);
    // One statement each, prepared on the first run.
    expect(await preparedOn(c, drop)).toBe(await preparedOn(c, drop));
  });

  it('load staged rows exactly with a plain INSERT ... SELECT run again', async () => {
    const load = 'INSERT INTO spans SELECT symbol, start_ms, candles, NULL FROM stage';
    await thirtyBatches(() => runPrepared(c, load));
    expect(await spansHeld()).toEqual([1500n, BigInt((1499 * 1500) / 2), BigInt(30 * ((49 * 50) / 2))]);
  });

  it('refuse an upsert, which DuckDB 1.5.5 runs wrongly once prepared', async () => {
    const message =
      'an upsert is not prepared: DuckDB 1.5.5 writes wrong rows when one runs again (src/duckdb/prepared.ts); run it with connection.run';
    await expect(
      preparedOn(c, 'INSERT OR REPLACE INTO spans SELECT symbol, start_ms, candles, NULL FROM stage'),
    ).rejects.toThrow(message);
    await expect(
      preparedOn(c, 'INSERT INTO spans SELECT symbol, start_ms, candles, NULL FROM stage ON CONFLICT DO NOTHING'),
    ).rejects.toThrow(message);
    await expect(runPrepared(c, 'insert or ignore into spans values ($s, 1, 1, NULL)', { s: 'X' })).rejects.toThrow(
      message,
    );
    await expect(
      preparedOn(
        c,
        'MERGE INTO spans USING stage USING (symbol, start_ms) WHEN NOT MATCHED THEN INSERT VALUES (stage.symbol, stage.start_ms, stage.candles, NULL)',
      ),
    ).rejects.toThrow(message);
  });

  // Why the refusal: DuckDB's own prepared statement, run again, does not write what it is given. When an upgrade of
  // DuckDB makes this test fail, the bug is fixed, and preparedOn may prepare upserts again.
  it('are refused for upserts because DuckDB 1.5.5 loses and garbles rows of an INSERT OR REPLACE ... SELECT run again', async () => {
    const upsert = await c.prepare('INSERT OR REPLACE INTO spans SELECT symbol, start_ms, candles, NULL FROM stage');
    await thirtyBatches(async () => {
      await upsert.run();
    });
    const [rows] = (await spansHeld()) as [bigint];
    expect(rows).toBeLessThan(1500n);
    // The same statement not prepared writes all 1500.
    await c.run('DELETE FROM spans');
    await thirtyBatches(async () => {
      await c.run('INSERT OR REPLACE INTO spans SELECT symbol, start_ms, candles, NULL FROM stage');
    });
    expect(await spansHeld()).toEqual([1500n, BigInt((1499 * 1500) / 2), BigInt(30 * ((49 * 50) / 2))]);
  });
});
