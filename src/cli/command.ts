import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

/**
 * A command whose handler's arguments are typed by its builder's options: no interface that repeats them, no
 * cast. Handlers import what they run when they run (`await import(...)`), so `--help` loads nothing heavy
 * (no DuckDB).
 *
 * @example
 * defineCommand({ command: 'status', describe: '...', builder: (y) => y.option('db', { type: 'string', default: 'x' }),
 *   handler: async (args) => { args.db } }) // args.db: string
 */
export function defineCommand<U>(spec: {
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<U>;
  handler: (args: ArgumentsCamelCase<U>) => Promise<void>;
}): CommandModule<object, U> {
  return spec;
}
