import type { Argv, CommandModule } from 'yargs';
import { createLogger } from '../../log/logger.js';
import { runTransformStage, transformSummaryLines } from '../../stages/transform-stage.js';
import { openWarehouse } from '../../warehouse/warehouse.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';

/** `ledgerpipe transform`: rebuild the typed tables and the ledger from raw_records, then check them. */
export function transformCommand(io: CliIo): CommandModule<object, CommonArgs> {
  return {
    command: 'transform',
    describe: 'Rebuild the typed tables and the ledger from raw_records with the SQL in sql/, and check them',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs).example('ledgerpipe transform --db ./ledgerpipe.duckdb', 'Rebuild after an extract') as unknown as Argv<CommonArgs>,
    handler: async (args) => {
      const log = createLogger({ format: args['log-format'], quiet: args.quiet, write: io.log });
      const warehouse = await openWarehouse(args.db);
      try {
        const summary = await runTransformStage(warehouse, log);
        for (const line of transformSummaryLines(summary)) io.out(line);
      } finally {
        await warehouse.close();
      }
    },
  };
}
