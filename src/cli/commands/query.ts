import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';

/** `ledgerpipe query "<sql>"`: read-only SQL on the warehouse. */
export function queryCommand(io: CliIo) {
  return defineCommand({
    command: 'query <sql>',
    describe: 'Run read-only SQL on the warehouse and print the result',
    builder: (yargs) =>
      yargs
        .positional('sql', {
          type: 'string',
          demandOption: true,
          describe: 'One SELECT (or EXPLAIN, DESCRIBE, SHOW) statement',
        })
        .option('db', { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' })
        .option('lake', { type: 'string', describe: 'Query this lake (written with --lake) instead of the warehouse' })
        .option('format', {
          choices: ['table', 'csv', 'json'] as const,
          default: 'table' as const,
          describe: 'Output format',
        })
        .example(
          'ledgerpipe query "SELECT asset, category, sum(amount) FROM ledger GROUP BY ALL"',
          'Totals per asset and category',
        )
        .example('ledgerpipe query "SELECT * FROM withdrawals" --format csv > withdrawals.csv', 'Any table as CSV')
        .example(
          'ledgerpipe query --lake /lake "SELECT account, count(*) FROM ledger GROUP BY 1"',
          'Every shard of a lake as one table',
        ),
    handler: async (args) => {
      const { runQuery } = await import('../query-output.js');
      if (args.lake !== undefined) await runQuery(args.lake, args.sql, args.format, (line) => io.out(line), 'lake');
      else await runQuery(args.db, args.sql, args.format, (line) => io.out(line));
    },
  });
}
