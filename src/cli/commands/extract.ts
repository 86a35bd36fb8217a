import type { Argv, CommandModule } from 'yargs';
import { pipelineSchema } from '../../pipeline/define.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';
import { runStages } from '../stage-runner.js';

const extractOnly = pipelineSchema.parse({ name: 'extract', range: { kind: 'flags' }, stages: ['extract'] });

/** `ledgerpipe extract`: the extract stage alone (contract.md, "Commands"). */
export function extractCommand(io: CliIo, env: NodeJS.ProcessEnv): CommandModule<object, CommonArgs> {
  return {
    command: 'extract',
    describe: 'Fetch every record of the range into the warehouse (raw_records), resuming where a run stopped',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs)
        .example('ledgerpipe extract --year 2025 --base-url https://api.example.com', 'Fetch 2025 into ./ledgerpipe.duckdb')
        .example('ledgerpipe extract --from 2025-06-01 --to 2025-07-01 --streams withdrawals', 'One stream, one month') as unknown as Argv<CommonArgs>,
    handler: (args) => runStages(extractOnly, args, io, env, 'extract'),
  };
}
