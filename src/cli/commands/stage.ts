import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { withCommonOptions } from '../options.js';

/**
 * `extract`, `transform` and `export`: one stage of a pipeline alone, with the same flags as `run`
 * (README, "Commands").
 */
function stageCommand(stage: 'extract' | 'transform' | 'export', describe: string, examples: readonly (readonly [string, string])[]) {
  return (io: CliIo, env: NodeJS.ProcessEnv) =>
    defineCommand({
      command: stage,
      describe,
      builder: (yargs) => examples.reduce((y, [command, what]) => y.example(command, what), withCommonOptions(yargs)),
      handler: async (args) => {
        const [{ pipelineSchema }, { runStages }] = await Promise.all([import('../../pipeline/define.js'), import('../stage-runner.js')]);
        await runStages(pipelineSchema.parse({ name: stage, range: { kind: 'flags' }, stages: [stage] }), args, io, env, stage);
      },
    });
}

export const extractCommand = stageCommand('extract', 'Fetch every record of the range into the warehouse (raw_records), resuming where a run stopped', [
  ['ledgerpipe extract --year 2025 --base-url https://api.example.com', 'Fetch 2025 into ./ledgerpipe.duckdb'],
  ['ledgerpipe extract --from 2025-06-01 --to 2025-07-01 --streams withdrawals', 'One stream, one month'],
]);

export const transformCommand = stageCommand('transform', 'Rebuild the typed tables and the ledger from raw_records with the SQL in sql/, and check them', [
  ['ledgerpipe transform --db ./ledgerpipe.duckdb', 'Rebuild after an extract'],
]);

export const exportCommand = stageCommand('export', 'Write margin_records, futures_fills, withdrawals and ledger for the range as CSV and Parquet', [
  ['ledgerpipe export --year 2025 --out ./exports', 'The 2025 files, in CSV and Parquet'],
  ['ledgerpipe export --year 2025 --tz Europe/Berlin --format csv', 'A Berlin calendar year, CSV only'],
]);
