import type { Argv, CommandModule } from 'yargs';
import { pipelineSchema } from '../../pipeline/define.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';
import { runStages } from '../stage-runner.js';

/**
 * `extract`, `transform` and `export`: one stage of a pipeline alone, with the same flags as `run`
 * (README, "Commands").
 */
export function stageCommand(
  stage: 'extract' | 'transform' | 'export',
  describe: string,
  examples: readonly (readonly [string, string])[],
): (io: CliIo, env: NodeJS.ProcessEnv) => CommandModule<object, CommonArgs> {
  const pipeline = pipelineSchema.parse({ name: stage, range: { kind: 'flags' }, stages: [stage] });
  return (io, env) => ({
    command: stage,
    describe,
    builder: (yargs: Argv) => examples.reduce((y, [command, what]) => y.example(command, what), withCommonOptions(yargs)) as unknown as Argv<CommonArgs>,
    handler: (args) => runStages(pipeline, args, io, env, stage),
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
