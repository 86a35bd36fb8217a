import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampTz } from '../duckdb/time-values.js';

/** The stages of a pipeline, in order. */
export type Stage = 'extract' | 'transform' | 'prices' | 'export';

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

/** A counter as DuckDB's BIGINT parameter; NULL when not counted. */
const asBigint = (n: number | undefined): bigint | null => (n === undefined ? null : BigInt(n));

/** Records that a run moved on to `stage`, with the extraction's counters when it has them. */
export async function setRunStage(
  connection: DuckDBConnection,
  runId: string,
  stage: Stage,
  counters: Pick<RunEnd, 'requests' | 'rateLimited' | 'retries' | 'records'> = {},
): Promise<void> {
  await connection.run(
    `UPDATE runs SET stage = $stage, requests = coalesce($requests, requests), rate_limited = coalesce($limited, rate_limited),
       retries = coalesce($retries, retries), records = coalesce($records, records)
     WHERE run_id = $id`,
    {
      id: runId,
      stage,
      requests: asBigint(counters.requests),
      limited: asBigint(counters.rateLimited),
      retries: asBigint(counters.retries),
      records: asBigint(counters.records),
    },
  );
}

export async function finishRun(connection: DuckDBConnection, runId: string, end: RunEnd): Promise<void> {
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
      requests: asBigint(end.requests),
      limited: asBigint(end.rateLimited),
      retries: asBigint(end.retries),
      records: asBigint(end.records),
    },
  );
}
