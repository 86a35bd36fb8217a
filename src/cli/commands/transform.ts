import type { Argv, CommandModule } from 'yargs';
import { pipelineSchema } from '../../pipeline/define.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';
import { runStages } from '../stage-runner.js';

const transformOnly = pipelineSchema.parse({ name: 'transform', range: { kind: 'flags' }, stages: ['transform'] });

/** `ledgerpipe transform`: rebuild the typed tables and the ledger from raw_records, then check them. */
export function transformCommand(io: CliIo, env: NodeJS.ProcessEnv): CommandModule<object, CommonArgs> {
  return {
    command: 'transform',
    describe: 'Rebuild the typed tables and the ledger from raw_records with the SQL in sql/, and check them',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs).example('ledgerpipe transform --db ./ledgerpipe.duckdb', 'Rebuild after an extract') as unknown as Argv<CommonArgs>,
    handler: (args) => runStages(transformOnly, args, io, env, 'transform'),
  };
}
