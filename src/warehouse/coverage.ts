import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampTz } from './time-values.js';
import type { Window } from '../time/window.js';

export interface CoverageRow {
  partition: string;
  window: Window;
  status: 'open' | 'done';
  cursor: string | null;
}

/** Every coverage window of one account's stream. */
export async function readCoverage(connection: DuckDBConnection, account: string, stream: string): Promise<CoverageRow[]> {
  const reader = await connection.runAndReadAll(
    `SELECT partition, epoch_ms(window_start) AS start_ms, epoch_ms(window_end) AS end_ms, status, cursor
     FROM coverage WHERE account = $account AND stream = $stream ORDER BY partition, window_start`,
    { account, stream },
  );
  return reader.getRowObjectsJS().map((r) => ({
    partition: String(r['partition']),
    window: { start: Number(r['start_ms']), end: Number(r['end_ms']) },
    status: r['status'] === 'done' ? 'done' : 'open',
    cursor: r['cursor'] === null ? null : String(r['cursor']),
  }));
}

/** Forgets a window (its records stay): used when a window is split into narrower ones. */
export async function dropWindow(connection: DuckDBConnection, account: string, stream: string, partition: string, window: Window): Promise<void> {
  await connection.run(
    `DELETE FROM coverage WHERE account = $account AND stream = $stream AND partition = $partition
     AND window_start = $start AND window_end = $end`,
    { account, stream, partition, start: timestampTz(window.start), end: timestampTz(window.end) },
  );
}

/** The narrower window the server taught for this stream, if any. */
export async function readLearnedWindow(connection: DuckDBConnection, account: string, stream: string): Promise<number | undefined> {
  const reader = await connection.runAndReadAll('SELECT window_ms FROM learned_windows WHERE account = $account AND stream = $stream', { account, stream });
  const row = reader.getRowObjectsJS()[0];
  return row === undefined ? undefined : Number(row['window_ms']);
}

export async function saveLearnedWindow(
  connection: DuckDBConnection,
  entry: { account: string; stream: string; windowMs: number; reason: string; now: number },
): Promise<void> {
  await connection.run(
    `INSERT INTO learned_windows (account, stream, window_ms, reason, learned_at) VALUES ($account, $stream, $ms, $reason, $now)
     ON CONFLICT (account, stream) DO UPDATE SET window_ms = excluded.window_ms, reason = excluded.reason, learned_at = excluded.learned_at`,
    { account: entry.account, stream: entry.stream, ms: BigInt(entry.windowMs), reason: entry.reason, now: timestampTz(entry.now) },
  );
}
