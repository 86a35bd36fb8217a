import type { Argv, CommandModule } from 'yargs';
import { loadPipeline } from '../../pipeline/load.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';
import { runStages } from '../stage-runner.js';

type RunArgs = CommonArgs & { pipeline: string };

/** `ledgerpipe run <pipeline>`: extract, transform and export as a pipeline says. */
export function runCommand(io: CliIo, env: NodeJS.ProcessEnv): CommandModule<object, RunArgs> {
  return {
    command: 'run <pipeline>',
    describe: 'Extract, transform and export as a pipeline says: year-end, nightly, or a path to your own pipeline file',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs)
        .positional('pipeline', { type: 'string', demandOption: true, describe: 'year-end, nightly, or a .json/.js pipeline file' })
        .example('ledgerpipe run year-end --year 2025', 'The whole of 2025: warehouse, ledger and exports')
        .example('ledgerpipe run nightly', 'From where the last run stopped to now, with a 3-day look-back')
        .example('ledgerpipe run ./pipelines/withdrawals.json --year 2025', 'Your own pipeline file') as unknown as Argv<RunArgs>,
    handler: async (args) => runStages(await loadPipeline(args.pipeline), args, io, env),
  };
}
