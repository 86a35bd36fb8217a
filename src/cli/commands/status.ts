import type { Argv, CommandModule } from 'yargs';
import { statusLines } from '../../status/status.js';
import { openWarehouseToRead } from '../../warehouse/warehouse.js';
import type { CliIo } from '../io.js';

interface StatusArgs {
  db: string;
}

/** `ledgerpipe status`: what the warehouse holds and what is missing. */
export function statusCommand(io: CliIo): CommandModule<object, StatusArgs> {
  return {
    command: 'status',
    describe: 'Per account and stream: covered ranges, gaps, unfinished windows, rows, learned windows, last run',
    builder: (yargs: Argv) =>
      yargs
        .option('db', { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' })
        .example('ledgerpipe status', 'What ./ledgerpipe.duckdb holds') as unknown as Argv<StatusArgs>,
    handler: async (args) => {
      const warehouse = await openWarehouseToRead(args.db);
      try {
        for (const line of await statusLines(warehouse)) io.out(line);
      } finally {
        await warehouse.close();
      }
    },
  };
}
