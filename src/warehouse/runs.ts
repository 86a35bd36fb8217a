import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampTz } from './time-values.js';

/** The stages of a pipeline, in order. */
export type Stage = 'extract' | 'transform' | 'export';

export interface RunStart {
  account: string;
  command: string;
  from?: number;
  to?: number;
  now: number;
  /** The stage it starts with. */
  stage: Stage;
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
    `INSERT INTO runs (run_id, account, command, range_from, range_to, started_at, status, stage)
     VALUES ($id, $account, $command, $from, $to, $now, 'running', $stage)`,
    {
      id: runId,
      stage: run.stage,
      account: run.account,
      command: run.command,
      from: run.from === undefined ? null : timestampTz(run.from),
      to: run.to === undefined ? null : timestampTz(run.to),
      now: timestampTz(run.now),
    },
  );
  return runId;
}

/** Records that a run moved on to `stage`, with the extraction's counters when it has them. */
export async function setRunStage(connection: DuckDBConnection, runId: string, stage: Stage, counters: Pick<RunEnd, 'requests' | 'rateLimited' | 'retries' | 'records'> = {}): Promise<void> {
  const big = (n: number | undefined) => (n === undefined ? null : BigInt(n));
  await connection.run(
    `UPDATE runs SET stage = $stage, requests = coalesce($requests, requests), rate_limited = coalesce($limited, rate_limited),
       retries = coalesce($retries, retries), records = coalesce($records, records)
     WHERE run_id = $id`,
    { id: runId, stage, requests: big(counters.requests), limited: big(counters.rateLimited), retries: big(counters.retries), records: big(counters.records) },
  );
}

export async function finishRun(connection: DuckDBConnection, runId: string, end: RunEnd): Promise<void> {
  const big = (n: number | undefined) => (n === undefined ? null : BigInt(n));
  await connection.run(
    `UPDATE runs SET finished_at = $now, status = $status, exit_code = $code, message = $message,
       requests = coalesce($requests, requests), rate_limited = coalesce($limited, rate_limited),
       retries = coalesce($retries, retries), records = coalesce($records, records)
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
