import type { Argv, CommandModule } from 'yargs';
import type { ExtractResult } from '../../extract/extractor.js';
import { createLogger } from '../../log/logger.js';
import { runExtractStage } from '../../stages/extract-stage.js';
import type { CliIo } from '../io.js';
import { credentialsFromEnv, parseBaseUrl, parseRange, parseStreams, withCommonOptions, type CommonArgs } from '../options.js';

/** The per-stream lines printed on stdout after an extraction. */
export function extractSummary(result: ExtractResult): string[] {
  const lines = ['stream               windows  skipped    pages   records  requests  429s  retries'];
  for (const [name, s] of Object.entries(result.streams)) {
    lines.push(
      `${name.padEnd(20)} ${String(s.windowsDone).padStart(7)}  ${String(s.windowsSkipped).padStart(7)}  ${String(s.pages).padStart(7)}  ${String(s.records).padStart(8)}  ${String(s.requests).padStart(8)}  ${String(s.rateLimited).padStart(4)}  ${String(s.retries).padStart(7)}`,
    );
  }
  return lines;
}

/** `ledgerpipe extract`: the extract stage alone (contract.md, "Commands"). */
export function extractCommand(io: CliIo, env: NodeJS.ProcessEnv): CommandModule<object, CommonArgs> {
  return {
    command: 'extract',
    describe: 'Fetch every record of the range into the warehouse (raw_records), resuming where a run stopped',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs)
        .example('ledgerpipe extract --year 2025 --base-url https://api.example.com', 'Fetch 2025 into ./ledgerpipe.duckdb')
        .example('ledgerpipe extract --from 2025-06-01 --to 2025-07-01 --streams withdrawals', 'One stream, one month') as unknown as Argv<CommonArgs>,
    handler: async (args) => {
      const range = parseRange(args);
      const streams = parseStreams(args.streams);
      const baseUrl = parseBaseUrl(args['base-url'], env);
      const credentials = credentialsFromEnv(env);
      const log = createLogger({ format: args['log-format'], quiet: args.quiet, write: io.log });
      const result = await runExtractStage({
        dbPath: args.db,
        account: 'default',
        baseUrl,
        credentials,
        ...range,
        streams,
        log,
        rateScale: args['rate-scale'],
      });
      for (const line of extractSummary(result)) io.out(line);
    },
  };
}
