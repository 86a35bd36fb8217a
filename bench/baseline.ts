import { pathToFileURL } from 'node:url';
import { extract, type ExtractOptions, type ExtractResult } from '../src/extract/extractor.js';
import { totalStats } from '../src/extract/stats.js';
import { DuckDBInstance } from '../src/duckdb/duckdb.js';
import { DEFAULT_WHOLE_LEDGER_MEMORY_LIMIT } from '../src/duckdb/memory-budget.js';

/**
 * The plain baseline the benchmark sets beside ledgerpipe: the same client, limiter and loader, but one
 * request at a time and the streams one after another, as a simple loop would do it.
 */
export async function extractOneByOne(options: ExtractOptions): Promise<ExtractResult> {
  const streams: ExtractResult['streams'] = {};
  const failures: ExtractResult['failures'] = [];
  let to = options.to;
  let present = 0;
  let accountMode: ExtractResult['accountMode'] = 'classic';
  for (const stream of options.streams) {
    const result = await extract({ ...options, streams: [stream], concurrency: 1 });
    Object.assign(streams, result.streams);
    failures.push(...result.failures);
    to = Math.min(to, result.to);
    present = Math.max(present, result.present);
    accountMode = result.accountMode;
  }
  return { streams, total: totalStats(streams), failures, to, present, accountMode };
}

/**
 * The plain yardstick for a transform and export (issue 45, "transform + export of 1M fills"): what one DuckDB
 * script would do with the raw records of a year of futures fills and withdrawals, in one pass and no more: type
 * them (JSON fields cast to decimals), derive the ledger (a fill's realized profit in its margin coin and one fee per
 * fee entry; a successful withdrawal's amount and fee out), and write the two typed tables and the ledger, in time
 * order, as CSV and Parquet. No catalog, no checks, no values, no gains: what ledgerpipe does beyond it is its own
 * cost. Run at the budget ledgerpipe makes a whole ledger at (320 MB; at 224 MB the script runs out of memory on a
 * year of 1M fills), without keeping the order of inserts (its files are sorted by their COPY), as ledgerpipe's
 * transform runs.
 */
export const ONE_PASS_SQL = [
  `CREATE OR REPLACE TABLE fills AS
   SELECT account, partition AS product_type, key AS trade_id, ts,
     payload->>'symbol' AS symbol, payload->>'side' AS side, payload->>'tradeSide' AS trade_side,
     CAST(payload->>'price' AS DECIMAL(38, 18)) AS price, CAST(payload->>'baseVolume' AS DECIMAL(38, 18)) AS base_volume,
     CAST(payload->>'quoteVolume' AS DECIMAL(38, 18)) AS quote_volume, CAST(payload->>'profit' AS DECIMAL(38, 18)) AS profit,
     coalesce(nullif(payload->>'marginCoin', ''), CASE partition WHEN 'USDT-FUTURES' THEN 'USDT' WHEN 'USDC-FUTURES' THEN 'USDC' ELSE regexp_replace(payload->>'symbol', 'USD([A-Z][0-9]{2})?$', '') END) AS margin_coin,
     CAST(payload->'feeDetail' AS JSON) AS fee_detail
   FROM raw_records WHERE stream = 'futures_fills'`,
  `CREATE OR REPLACE TABLE withdrawals_typed AS
   SELECT account, key AS order_id, ts, payload->>'coin' AS coin, CAST(payload->>'size' AS DECIMAL(38, 18)) AS size,
     CAST(nullif(payload->>'fee', '') AS DECIMAL(38, 18)) AS fee, payload->>'status' AS status
   FROM raw_records WHERE stream = 'withdrawals'`,
  `CREATE OR REPLACE TABLE ledger AS
   SELECT * FROM (
     SELECT account, 'futures_fills:' || trade_id || ':pnl' AS entry_id, ts, margin_coin AS asset, profit AS amount, 'realized_pnl' AS category FROM fills WHERE profit <> 0
     UNION ALL
     SELECT account, 'futures_fills:' || trade_id || ':fee' || e.n, ts, e.coin, -abs(e.fee), 'trading_fee'
     FROM (SELECT account, trade_id, ts, unnest(list_transform(CAST(fee_detail AS JSON[]), (x, i) -> {'n': i, 'coin': x->>'feeCoin', 'fee': CAST(x->>'totalFee' AS DECIMAL(38, 18))})) AS e FROM fills)
     WHERE e.fee <> 0
     UNION ALL
     SELECT account, 'withdrawals:' || order_id || ':main', ts, coin, -size, 'withdrawal' FROM withdrawals_typed WHERE status = 'success'
     UNION ALL
     SELECT account, 'withdrawals:' || order_id || ':fee', ts, coin, -abs(fee), 'withdrawal_fee' FROM withdrawals_typed WHERE status = 'success' AND fee <> 0
   ) ORDER BY ts, entry_id, account`,
];

/** The files the one-pass script writes: each table in time order, as CSV and Parquet. */
export function onePassCopies(out: string): string[] {
  return ['fills', 'withdrawals_typed', 'ledger'].flatMap((table) => [
    `COPY (SELECT * FROM ${table} ORDER BY ts) TO '${out}/${table}.csv' (FORMAT csv, HEADER true)`,
    `COPY (SELECT * FROM ${table} ORDER BY ts) TO '${out}/${table}.parquet' (FORMAT parquet, COMPRESSION snappy)`,
  ]);
}

/**
 * Runs the one-pass script on the raw records of `db` (a copy: it writes its tables there) into `out`:
 * `node dist/bench/baseline.js <db> <out>`, in a process of its own.
 */
export async function runOnePass(db: string, out: string): Promise<void> {
  const instance = await DuckDBInstance.create(db, {
    memory_limit: DEFAULT_WHOLE_LEDGER_MEMORY_LIMIT,
    preserve_insertion_order: 'false',
  });
  const c = await instance.connect();
  try {
    for (const sql of [...ONE_PASS_SQL, ...onePassCopies(out)]) await c.run(sql);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runOnePass(process.argv[2] as string, process.argv[3] as string);
}
