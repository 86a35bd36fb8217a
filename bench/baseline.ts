import { extract, type ExtractOptions, type ExtractResult } from '../src/extract/extractor.js';
import { totalStats } from '../src/extract/stats.js';

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
