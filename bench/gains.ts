import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { computeGains } from '../src/gains/gains.js';
import type { CostBasis } from '../src/gains/match.js';
import { openWarehouse } from '../src/warehouse/warehouse.js';

export interface GainsMeasurement {
  trades: number;
  events: number;
  costBasis: CostBasis;
  seconds: number;
  disposals: number;
  /** The process's peak resident memory after the computation, in MB (it includes DuckDB's). */
  peakRssMb: number;
}

/**
 * The gains engine over a year of `trades` spot trades of 20 tokens against EUR (each a token leg and a EUR leg,
 * every fifth with a fee in the token), made in SQL as the valued ledger the engine reads
 * (lp_ledger_valued_rows()), at the warehouse's default memory budget: buys and sells alternate per token, so
 * every method has lots to match.
 */
export async function measureGains(options: { trades: number; costBasis: CostBasis }): Promise<GainsMeasurement> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-bench-gains-'));
  const warehouse = await openWarehouse(join(dir, 'gains.duckdb'));
  try {
    const c = warehouse.connection;
    await c.run(`CREATE OR REPLACE MACRO lp_valuation_fiat() AS CAST('EUR' AS VARCHAR)`);
    await c.run(`
      CREATE TABLE bench_ledger AS
      WITH trades AS (
        SELECT i, 'TOK' || (i % 20) AS token,
          TIMESTAMPTZ '2025-01-01 00:00:00+00' + to_milliseconds(CAST(i AS BIGINT) * 105120) AS ts,
          CAST(((i * 7919) % 1000) / 100.0 + 0.01 AS DECIMAL(38, 18)) AS quantity,
          CAST(((i * 104729) % 100000) / 100.0 + 1 AS DECIMAL(38, 18)) AS eur,
          (i // 20) % 3 <> 2 AS buy
        FROM range(${options.trades}) AS t(i)
      )
      SELECT 'bench' AS account, 'e' || i || 'a' AS entry_id, ts, token AS asset, CASE WHEN buy THEN quantity ELSE -quantity END AS amount,
        'spot_trade' AS category, 'trade_leg' AS tax_class, 'g' || i AS trade_group, NULL::DECIMAL(38, 18) AS value_usdt, CASE WHEN buy THEN eur ELSE -eur END AS value_fiat
      FROM trades
      UNION ALL
      SELECT 'bench', 'e' || i || 'b', ts, 'EUR', CASE WHEN buy THEN -eur ELSE eur END, 'spot_trade', 'trade_leg', 'g' || i, NULL, CASE WHEN buy THEN -eur ELSE eur END
      FROM trades
      UNION ALL
      SELECT 'bench', 'e' || i || 'f', ts, token, CAST(-quantity / 1000 AS DECIMAL(38, 18)), 'spot_fee', 'trading_fee', 'g' || i, NULL, CAST(-eur / 1000 AS DECIMAL(38, 18))
      FROM trades WHERE i % 5 = 0`);
    await c.run(`CREATE OR REPLACE MACRO lp_ledger_valued_rows() AS TABLE SELECT * FROM bench_ledger`);
    const events = Number(
      (await c.runAndReadAll(`SELECT count(*) FROM bench_ledger WHERE asset <> 'EUR'`)).getRows()[0]?.[0],
    );
    const started = performance.now();
    const result = await computeGains(c, {
      costBasis: options.costBasis,
      pool: 'account',
      taxYearStart: '01-01',
      timeZone: 'UTC',
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      trades: options.trades,
      events,
      costBasis: options.costBasis,
      seconds,
      disposals: result.disposals,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await warehouse.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Run as a script (`node dist/bench/gains.js 300000 fifo`): one measurement in a process of its own, as JSON. */
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureGains({
    trades: Number(process.argv[2] ?? 300_000),
    costBasis: (process.argv[3] ?? 'fifo') as CostBasis,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
