import type { DuckDBConnection } from '@duckdb/node-api';
import type { Window } from '../time/window.js';
import { runPrepared } from '../duckdb/prepared.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { GRANULARITY, type Candle } from './candles.js';

/** A span as read: its candles, and the hours of the symbol's trading life it should hold but does not. */
export interface SpanRead {
  window: Window;
  candles: Candle[];
  missing: number[];
}

/** Why an hour of a span has no candle after the span was read (price_coverage.missing_reason). */
export const MISSING_REASON = 'the platform served no candle for the hour, asked twice';

export interface SpanWriter {
  /** Resolves once the span's candles and its row of price_coverage are committed, together. */
  write(symbol: string, span: SpanRead): Promise<void>;
}

interface Waiting {
  symbol: string;
  span: SpanRead;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The prices stage's writer of spans: each span's candles and coverage commit in one transaction with those of the
 * spans read while the one before was committing, as the record loader commits pages (src/load/raw-writer.ts).
 * A killed run loses or repeats nothing: a span is in price_coverage exactly when its candles are in price_candles.
 * A transaction that fails fails each span in it, whatever its symbol: the stage stops, and the next run reads those
 * spans again. A transaction costs about 11 ms of CPU whatever it holds, and a span's 200 candles little beside it:
 * 72 spans one by one took 0.93 CPU-s, in 8 transactions 0.26 (docs/performance.md, "Prices"). At the platform's 20
 * requests a second spans come one at a time, and each is its own transaction as before. The readers (at most 4
 * symbols, 4 spans each) bound how many wait.
 *
 * `now` is the stage's time of fetching, the same for every span of a run (price_candles.fetched_at).
 */
export function createSpanWriter(warehouse: Warehouse, now: number): SpanWriter {
  let waiting: Waiting[] = [];
  let writing = false;
  const drain = async (): Promise<void> => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        try {
          await warehouse.transaction((c) => writeSpans(c, batch, now));
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  };
  return {
    write: (symbol, span) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ symbol, span, resolve, reject });
        if (!writing) void drain();
      }),
  };
}

/**
 * The candles of a symbol's spans are disjoint (each span is read once a run, and keeps only the candles inside
 * it: readCandles), so no two staged rows share a key.
 */
// The earliest hour whose candle is new or closes otherwise, noted for the gains kept from the values
// (ledger_changes; src/gains/kept.ts): a span read again with the same candles notes nothing.
const NOTE_CHANGED_CANDLES = `INSERT INTO ledger_changes
SELECT min(make_timestamptz(s.ts_ms * 1000)), 'candles new or changed' FROM lp_stage_candles AS s
LEFT JOIN price_candles AS p ON p.symbol = s.symbol AND p.granularity = $g AND p.ts = make_timestamptz(s.ts_ms * 1000)
WHERE p.close IS DISTINCT FROM lp_amount(s.close)
HAVING count(*) > 0`;

const LOAD_STAGED_CANDLES = `INSERT OR REPLACE INTO price_candles
SELECT symbol, $g, make_timestamptz(ts_ms * 1000), lp_amount(close), payload, $now FROM lp_stage_candles`;

// A span read again (it had hours missing) replaces its row: a DELETE of the staged spans' keys and a plain INSERT.
// The hours a span lacks are staged as one text of epoch milliseconds, not written as up to 200 timestamp literals.
const DROP_SPANS = `DELETE FROM price_coverage USING lp_stage_price_spans AS s
WHERE price_coverage.symbol = s.symbol AND price_coverage.granularity = $g AND price_coverage.window_start = make_timestamptz(s.start_ms * 1000)`;
const RECORD_SPANS = `INSERT INTO price_coverage (symbol, granularity, window_start, window_end, candles, fetched_at, missing_hours, missing_reason)
SELECT symbol, $g, make_timestamptz(start_ms * 1000), make_timestamptz(end_ms * 1000), candles, $now,
  CASE WHEN hours = '' THEN NULL ELSE list_transform(string_split(hours, ','), lambda h: make_timestamptz(h::BIGINT * 1000)) END,
  CASE WHEN hours = '' THEN NULL ELSE $reason END
FROM lp_stage_price_spans ORDER BY seq`;

/**
 * Writes the spans of one transaction: their candles and spans appended to the stage (sql/load/price_staging.sql),
 * then loaded by statements of fixed text.
 */
async function writeSpans(c: DuckDBConnection, batch: readonly Waiting[], now: number): Promise<void> {
  const staged = await stageSpans(c, batch);
  const fetchedAt = timestampTz(now);
  // Not prepared: an INSERT ... SELECT ... ON CONFLICT prepared and run again writes wrong rows in DuckDB 1.5.5
  // (src/duckdb/prepared.ts). Nor is the DELETE with a join, a kind prepared.test.ts has not checked run again.
  if (staged > 0) {
    await c.run(NOTE_CHANGED_CANDLES, { g: GRANULARITY });
    await c.run(LOAD_STAGED_CANDLES, { g: GRANULARITY, now: fetchedAt });
  }
  await c.run(DROP_SPANS, { g: GRANULARITY });
  // A plain INSERT ... SELECT and plain DELETEs, prepared once per connection (src/duckdb/prepared.ts): at the
  // platform's rate each span is a transaction of its own, and they run once a span.
  await runPrepared(c, RECORD_SPANS, { g: GRANULARITY, now: fetchedAt, reason: MISSING_REASON });
  await runPrepared(c, 'DELETE FROM lp_stage_candles');
  await runPrepared(c, 'DELETE FROM lp_stage_price_spans');
}

/** Appends the batch's candles and spans to the stage; returns how many candles. */
async function stageSpans(c: DuckDBConnection, batch: readonly Waiting[]): Promise<number> {
  let staged = 0;
  const candles = await c.createAppender('lp_stage_candles');
  try {
    const spans = await c.createAppender('lp_stage_price_spans');
    try {
      for (const [seq, { symbol, span }] of batch.entries()) {
        for (const k of span.candles) {
          candles.appendVarchar(symbol);
          candles.appendBigInt(BigInt(k.ts));
          candles.appendVarchar(k.close);
          candles.appendVarchar(k.payload);
          candles.endRow();
          staged++;
        }
        spans.appendVarchar(symbol);
        spans.appendBigInt(BigInt(span.window.start));
        spans.appendBigInt(BigInt(span.window.end));
        spans.appendInteger(span.candles.length);
        spans.appendVarchar(span.missing.join(','));
        spans.appendBigInt(BigInt(seq));
        spans.endRow();
      }
      candles.flushSync();
      spans.flushSync();
    } finally {
      spans.closeSync();
    }
  } finally {
    candles.closeSync();
  }
  return staged;
}
