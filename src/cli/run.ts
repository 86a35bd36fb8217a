import yargs, { type Argv } from 'yargs';
import { UsageError } from '../errors/usage-error.js';
import { demoCommand } from './commands/demo.js';
import { queryCommand } from './commands/query.js';
import { runCommand } from './commands/run.js';
import { simCommand } from './commands/sim.js';
import { exportCommand, extractCommand, pricesCommand, reportCommand, transformCommand } from './commands/stage.js';
import { statusCommand } from './commands/status.js';
import { describeFailure, logFormatOf } from './exit.js';
import { processIo, type CliIo } from './io.js';
import { typedFlags, unknownFlagsLine } from './unknown-flags.js';
import { packageVersion } from '../util/package-root.js';

/** The commands, as their first word. */
const COMMANDS = ['run', 'extract', 'transform', 'prices', 'export', 'report', 'status', 'query', 'sim', 'demo'];

/** The line for a first word that is no command: a pipeline's name says how to run it. */
function unknownCommand(first: string | undefined): string | undefined {
  if (first === undefined || first.startsWith('-') || COMMANDS.includes(first)) return undefined;
  if (first === 'year-end' || first === 'nightly' || /\.(json|js)$/.test(first))
    return `${first} is a pipeline, not a command; run it with: ledgerpipe run ${first}`;
  return `unknown command "${first}"; the commands are ${COMMANDS.join(', ')} (see ledgerpipe --help)`;
}

/**
 * Yargs renders a command's whole help text as the command starts, in case the command later asks for it
 * (`showHelp`); none of ours does: help is printed only for `--help`, and a usage error is one line (exit.ts). The
 * text cost about 0.1 s of CPU in every process, a tenth of a `status` (docs/performance.md, "Start-up"). Reaching
 * the instance is yargs's own (its commands do it); if a release hides it, the text is rendered as before.
 */
function skipHelpCache(parser: Argv): void {
  const usage = (
    parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }
  )
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (usage?.cacheHelpMessage !== undefined) usage.cacheHelpMessage = () => undefined;
}

/**
 * The line for yargs's "Unknown argument(s): ..." when what it names was typed as flags (unknown-flags.ts): with
 * the nearest flag of the command that was being parsed. Its flags are what yargs holds for that command when it
 * fails (getOptions; the positionals and hidden flags left out), which its typings do not show; if a release hides
 * them, yargs's own words stand.
 */
function unknownFlags(parser: Argv, message: string, argv: readonly string[]): string | undefined {
  const reported = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(', ');
  const internals = parser as unknown as {
    getOptions?: () => { key?: Record<string, unknown>; hiddenOptions?: string[] };
    getGroups?: () => Record<string, string[]>;
    getInternalMethods?: () => { getContext?: () => { commands?: string[] } };
  };
  const options = internals.getOptions?.();
  if (reported === undefined || options?.key === undefined) return undefined;
  const flags = typedFlags(reported, argv);
  if (flags.length === 0) return undefined;
  const hidden = new Set([...(options.hiddenOptions ?? []), ...(internals.getGroups?.()['Positionals:'] ?? [])]);
  const known = Object.keys(options.key).filter((k) => !hidden.has(k));
  return unknownFlagsLine(flags, known, internals.getInternalMethods?.().getContext?.().commands?.[0]);
}

/**
 * Runs the CLI on `argv` and resolves to the exit status. The commands are an explicit list; each handler
 * imports what it runs when it runs, so `--help` and `--version` load no DuckDB.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
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
    .demandCommand(1, 'name a command')
    .strict()
    .help()
    .version(packageVersion())
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      if (error !== undefined) throw error;
      throw new UsageError(
        unknownCommand(argv[0]) ?? unknownFlags(parser, message, argv) ?? `${message}; see ledgerpipe --help`,
      );
    });
  skipHelpCache(parser);
  try {
    await parser.parseAsync();
    return 0;
  } catch (error) {
    const { line, status } = describeFailure(error, { format: logFormatOf(argv) });
    io.log(line);
    return status;
  }
}
