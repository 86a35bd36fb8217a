import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { extract, type ExtractOptions, type ExtractResult } from '../extract/extractor.js';
import { createSignedClient } from '../http/client.js';
import type { Credentials } from '../http/credentials.js';
import type { Logger } from '../log/logger.js';
import type { StreamDef } from '../streams/stream.js';
import { finishRun, startRun } from '../warehouse/runs.js';
import { openWarehouse } from '../warehouse/warehouse.js';

export interface ExtractStageOptions {
  dbPath: string;
  account: string;
  baseUrl: string;
  credentials: Credentials;
  from: number;
  to: number;
  streams: readonly StreamDef[];
  log: Logger;
  rateScale?: number;
  clock?: () => number;
  onProgress?: ExtractOptions['onProgress'];
}

/** Why a finished extraction is still incomplete (exit 4), or undefined when it is whole. */
export function incompleteReason(result: ExtractResult): string | undefined {
  const quarantined = Object.entries(result.streams).filter(([, s]) => s.quarantined > 0);
  if (quarantined.length === 0) return undefined;
  const list = quarantined.map(([name, s]) => `${name}: ${s.quarantined}`).join(', ');
  return `records that failed their schema were set aside in the quarantine table (${list}); see them with: ledgerpipe query "SELECT stream, key, error FROM quarantine"`;
}

/**
 * The extract stage on its own: opens the warehouse, records the run, extracts, and records how it ended.
 * Everything committed before a failure stays committed.
 */
export async function runExtractStage(options: ExtractStageOptions): Promise<ExtractResult> {
  const clock = options.clock ?? Date.now;
  const warehouse = await openWarehouse(options.dbPath);
  const client = createSignedClient({ baseUrl: options.baseUrl, credentials: options.credentials, clock });
  try {
    const runId = await warehouse.exclusive((c) =>
      startRun(c, { account: options.account, command: 'extract', from: options.from, to: options.to, now: clock() }),
    );
    let result: ExtractResult;
    try {
      result = await extract({
        warehouse,
        client,
        account: options.account,
        runId,
        streams: options.streams,
        from: options.from,
        to: options.to,
        clock,
        rateScale: options.rateScale ?? 1,
        log: options.log,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    } catch (error) {
      const e = error instanceof LedgerpipeError ? error : undefined;
      await warehouse
        .exclusive((c) =>
          finishRun(c, runId, {
            status: e?.exit === 'incomplete' ? 'incomplete' : 'failed',
            exitCode: EXIT_STATUS[e?.exit ?? 'unexpected'],
            message: error instanceof Error ? error.message : String(error),
            now: clock(),
          }),
        )
        .catch(() => undefined);
      throw error;
    }
    const reason = incompleteReason(result);
    const t = result.total;
    await warehouse.exclusive((c) =>
      finishRun(c, runId, {
        status: reason === undefined ? 'done' : 'incomplete',
        exitCode: reason === undefined ? 0 : EXIT_STATUS.incomplete,
        message: reason ?? 'ok',
        requests: t.requests,
        rateLimited: t.rateLimited,
        retries: t.retries,
        records: t.records,
        now: clock(),
      }),
    );
    if (reason !== undefined) throw new LedgerpipeError(reason, { code: 'LP_QUARANTINE', exit: 'incomplete' });
    return result;
  } finally {
    await client.close();
    await warehouse.close();
  }
}
