import type { DuckDBConnection } from '@duckdb/node-api';
import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { finishRun, startRun, type RunEnd, type Stage } from '../reads/runs.js';

/** How a run that failed with `error` ends in `runs`. */
export function failedEnd(error: unknown, now: number): RunEnd {
  const e = error instanceof LedgerpipeError ? error : undefined;
  return {
    status: e?.exit === 'incomplete' ? 'incomplete' : 'failed',
    exitCode: EXIT_STATUS[e?.exit ?? 'unexpected'],
    message: error instanceof Error ? error.message : String(error),
    now,
  };
}

/** Ends each of `runIds` in `runs`: with `end`, or with what `end` says for that run. */
export async function finishRuns(
  connection: DuckDBConnection,
  runIds: readonly string[],
  end: RunEnd | ((runId: string) => RunEnd),
): Promise<void> {
  for (const id of runIds) await finishRun(connection, id, typeof end === 'function' ? end(id) : end);
}

/** A row in `runs` for every account the warehouse holds, at `stage`: a transform or an export run alone. */
export async function startRunsForEveryAccount(
  connection: DuckDBConnection,
  run: { command: string; from?: number; to?: number; now: number; stage: Stage },
): Promise<string[]> {
  const accounts = (await connection.runAndReadAll('SELECT DISTINCT account FROM raw_records ORDER BY 1'))
    .getRows()
    .map((r) => String(r[0]));
  const ids: string[] = [];
  for (const account of accounts) ids.push(await startRun(connection, { account, ...run }));
  return ids;
}
