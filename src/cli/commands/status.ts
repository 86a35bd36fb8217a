import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';

/** `ledgerpipe status`: what the warehouse holds and what is missing. */
export function statusCommand(io: CliIo) {
  return defineCommand({
    command: 'status',
    describe: 'Per account and stream: covered ranges, gaps, unfinished windows, rows, learned windows, last run',
    builder: (yargs) =>
      yargs
        .option('db', { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' })
        .example('ledgerpipe status', 'What ./ledgerpipe.duckdb holds'),
    handler: async (args) => {
      const [{ statusLines }, { openWarehouseToRead }] = await Promise.all([
        import('../status.js'),
        import('../../warehouse/warehouse.js'),
      ]);
      const warehouse = await openWarehouseToRead(args.db);
      try {
        for (const line of await statusLines(warehouse)) io.out(line);
      } finally {
        await warehouse.close();
      }
    },
  });
}
