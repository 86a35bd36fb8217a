import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampTz } from './time-values.js';

export interface RunStart {
  account: string;
  command: string;
  from?: number;
  to?: number;
  now: number;
}

export interface RunEnd {
  status: 'done' | 'incomplete' | 'failed';
  exitCode: number;
  message: string;
  requests?: number;
  rateLimited?: number;
  retries?: number;
  records?: number;
  now: number;
}

/** Records a run as started and returns its id. */
export async function startRun(connection: DuckDBConnection, run: RunStart): Promise<string> {
  const runId = randomUUID();
  await connection.run(
    `INSERT INTO runs (run_id, account, command, range_from, range_to, started_at, status)
     VALUES ($id, $account, $command, $from, $to, $now, 'running')`,
    {
      id: runId,
      account: run.account,
      command: run.command,
      from: run.from === undefined ? null : timestampTz(run.from),
      to: run.to === undefined ? null : timestampTz(run.to),
      now: timestampTz(run.now),
    },
  );
  return runId;
}

export async function finishRun(connection: DuckDBConnection, runId: string, end: RunEnd): Promise<void> {
  const big = (n: number | undefined) => (n === undefined ? null : BigInt(n));
  await connection.run(
    `UPDATE runs SET finished_at = $now, status = $status, exit_code = $code, message = $message,
       requests = $requests, rate_limited = $limited, retries = $retries, records = $records
     WHERE run_id = $id`,
    {
      id: runId,
      now: timestampTz(end.now),
      status: end.status,
      code: end.exitCode,
      message: end.message,
      requests: big(end.requests),
      limited: big(end.rateLimited),
      retries: big(end.retries),
      records: big(end.records),
    },
  );
}
