import type { Argv, CommandModule } from 'yargs';
import { runQuery, type QueryFormat } from '../../warehouse/query.js';
import type { CliIo } from '../io.js';

interface QueryArgs {
  sql: string;
  db: string;
  format: QueryFormat;
}

/** `ledgerpipe query "<sql>"`: read-only SQL on the warehouse. */
export function queryCommand(io: CliIo): CommandModule<object, QueryArgs> {
  return {
    command: 'query <sql>',
    describe: 'Run read-only SQL on the warehouse and print the result',
    builder: (yargs: Argv) =>
      yargs
        .positional('sql', { type: 'string', demandOption: true, describe: 'One SELECT (or EXPLAIN, DESCRIBE, SHOW) statement' })
        .option('db', { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' })
        .option('format', { choices: ['table', 'csv', 'json'] as const, default: 'table' as const, describe: 'Output format' })
        .example('ledgerpipe query "SELECT asset, category, sum(amount) FROM ledger GROUP BY ALL"', 'Totals per asset and category')
        .example('ledgerpipe query "SELECT * FROM withdrawals" --format csv > withdrawals.csv', 'Any table as CSV') as unknown as Argv<QueryArgs>,
    handler: async (args) => {
      await runQuery(args.db, args.sql, args.format, (line) => io.out(line));
    },
  };
}
