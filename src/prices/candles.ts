import { z } from 'zod';
import { decimalString, msString } from '../streams/fields.js';
import type { Window } from '../time/window.js';

/**
 * The platform's public history candles (docs/platform.md, "Prices"): `GET /api/v2/spot/market/history-candles`,
 * no key, 20 requests a second per IP address, `endTime` required ("the chart data before this time stamp"),
 * `limit` up to 200. Each candle is an array of strings: open time, open, high, low, close, then volumes.
 */
export const HISTORY_CANDLES = '/api/v2/spot/market/history-candles';
/** Hourly: the candle a movement falls in is at most an hour wide (docs/values.md). */
export const GRANULARITY = '1h';
export const HOUR_MS = 3_600_000;
/** Candles per request, the most the endpoint gives. */
export const CANDLES_PER_PAGE = 200;
/** Requests a second per IP address, for every public market endpoint's caller on this machine. */
export const CANDLE_RATE_PER_SECOND = 20;
/**
 * The span one request reads: 200 hours, aligned to multiples of it from the epoch so every run asks the same spans.
 */
export const CHUNK_MS = CANDLES_PER_PAGE * HOUR_MS;

/** One candle as it came: its open time, its close, and the array itself. */
export interface Candle {
  ts: number;
  close: string;
  payload: string;
}

const candleRow = z
  .array(z.string())
  .min(5)
  .superRefine((row, ctx) => {
    if (!msString.safeParse(row[0]).success)
      ctx.addIssue({ code: 'custom', message: `open time ${row[0]} is not a Unix millisecond time` });
    if (!decimalString.safeParse(row[4]).success)
      ctx.addIssue({ code: 'custom', message: `close ${row[4]} is not a plain decimal` });
  });

/** `data` of a candles answer: an array of candles; null (no candle) is read as empty. */
export const candlesSchema = z.array(candleRow).nullable();

/**
 * The candles of one answer that open inside `window`, one per open time. The published example repeats an
 * open time, the first of the two a placeholder with no volume: of candles that share an open time the later
 * one in the answer is kept.
 */
export function readCandles(data: unknown, window: Window): Candle[] {
  const rows = candlesSchema.parse(data) ?? [];
  const byTime = new Map<number, Candle>();
  for (const row of rows) {
    const ts = Number(row[0]);
    if (ts < window.start || ts >= window.end) continue;
    byTime.set(ts, { ts, close: row[4] as string, payload: JSON.stringify(row) });
  }
  return [...byTime.values()].sort((a, b) => a.ts - b.ts);
}

/** The 200-hour spans that hold the hours of `[start, end)`, each clipped to `[start, end)` hour-aligned. */
export function chunksOf(window: Window): Window[] {
  const start = Math.floor(window.start / HOUR_MS) * HOUR_MS;
  const end = Math.ceil(window.end / HOUR_MS) * HOUR_MS;
  const chunks: Window[] = [];
  for (let at = Math.floor(start / CHUNK_MS) * CHUNK_MS; at < end; at += CHUNK_MS) {
    chunks.push({ start: Math.max(at, start), end: Math.min(at + CHUNK_MS, end) });
  }
  return chunks;
}
