import yargs from 'yargs';
import { UsageError } from '../errors/usage-error.js';
import { demoCommand } from './commands/demo.js';
import { queryCommand } from './commands/query.js';
import { runCommand } from './commands/run.js';
import { simCommand } from './commands/sim.js';
import { exportCommand, extractCommand, pricesCommand, reportCommand, transformCommand } from './commands/stage.js';
import { statusCommand } from './commands/status.js';
import { describeFailure, logFormatOf } from './exit.js';
import { processIo, type CliIo } from './io.js';
import { packageVersion } from '../util/package-root.js';


/**
 * Runs the CLI on `argv` and resolves to the exit status. The commands are an explicit list; each handler
 * imports what it runs when it runs, so `--help` and `--version` load no DuckDB.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parser = yargs([...argv])
    .scriptName('ledgerpipe')
    .command(runCommand(io, env))
    .command(extractCommand(io, env))
    .command(transformCommand(io, env))
    .command(pricesCommand(io, env))
    .command(exportCommand(io, env))
    .command(reportCommand(io, env))
    .command(statusCommand(io))
    .command(queryCommand(io))
    .command(simCommand(io))
    .command(demoCommand(io))
    .demandCommand(1, 'Name a command; see ledgerpipe --help')
    .strict()
    .help()
    .version(packageVersion())
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      throw error ?? new UsageError(`${message}; see ledgerpipe --help`);
    });
  try {
    await parser.parseAsync();
    return 0;
  } catch (error) {
    const { line, status } = describeFailure(error, { format: logFormatOf(argv) });
    io.log(line);
    return status;
  }
}
