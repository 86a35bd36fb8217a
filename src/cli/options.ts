import type { Argv } from 'yargs';
import { UsageError } from '../errors/usage-error.js';
import { STREAMS } from '../streams/index.js';
import type { StreamDef } from '../streams/stream.js';
import { assertTimeZone, parseInstant, yearRange } from '../time/instant.js';

/** Flags every pipeline command shares (README, "Commands"). */
export interface CommonArgs {
  from?: string;
  to?: string;
  year?: number;
  tz: string;
  'base-url'?: string;
  db: string;
  out: string;
  streams?: string;
  format?: string;
  config?: string;
  profile?: string;
  'log-format': 'pretty' | 'json';
  quiet: boolean;
  'rate-scale': number;
  'allow-gaps': boolean;
}

export function withCommonOptions<T>(yargs: Argv<T>): Argv<T & CommonArgs> {
  return yargs
    .option('from', { type: 'string', describe: 'Start of the range, inclusive: ISO date (midnight in --tz) or date-time' })
    .option('to', { type: 'string', describe: 'End of the range, exclusive' })
    .option('year', { type: 'number', describe: 'A calendar year in --tz: [YYYY-01-01, YYYY+1-01-01)' })
    .option('tz', { type: 'string', default: 'UTC', describe: 'IANA time zone for dates and --year' })
    .option('base-url', { type: 'string', describe: "The platform's API address (or LEDGERPIPE_BASE_URL)" })
    .option('db', { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' })
    .option('out', { type: 'string', default: './exports', describe: 'Folder for exported files' })
    .option('streams', { type: 'string', describe: `Comma list of streams (default all): ${STREAMS.map((s) => s.name).join(', ')}` })
    .option('format', { type: 'string', describe: "Export formats, comma list: csv, parquet, koinly, cointracking (default: the pipeline's, csv and parquet)" })
    .option('config', { type: 'string', describe: 'Profiles file (default ./ledgerpipe.config.json when present)' })
    .option('profile', { type: 'string', describe: 'Run one profile of the config file' })
    .option('log-format', { choices: ['pretty', 'json'] as const, default: 'pretty' as const, describe: 'Log lines for people or machines (stderr)' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Log errors only' })
    .option('allow-gaps', { type: 'boolean', default: false, describe: 'Write the files even when a stream could not be read (the run still exits 4)' })
    .option('rate-scale', { type: 'number', default: 1, hidden: true, describe: 'Multiplies the rate limits; only for a simulator started with the same --rate-scale' }) as Argv<T & CommonArgs>;
}

/** `[from, to)` in Unix ms from --year or --from/--to. */
export function parseRange(args: Pick<CommonArgs, 'from' | 'to' | 'year' | 'tz'>): { from: number; to: number } {
  assertTimeZone(args.tz);
  if (args.year !== undefined) {
    if (args.from !== undefined || args.to !== undefined) throw new UsageError('give either --year or --from/--to, not both');
    return yearRange(args.year, args.tz);
  }
  if (args.from === undefined || args.to === undefined) throw new UsageError('give the range: --year YYYY, or --from and --to (ISO dates)');
  const from = parseInstant(args.from, args.tz, '--from');
  const to = parseInstant(args.to, args.tz, '--to');
  if (from >= to) throw new UsageError(`--from ${args.from} must be before --to ${args.to}`);
  return { from, to };
}

/** The streams named by --streams, all of them by default. */
export function parseStreams(list: string | undefined): StreamDef[] {
  if (list === undefined || list.trim() === '') return [...STREAMS];
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((n) => !STREAMS.some((s) => s.name === n));
  if (unknown.length > 0) throw new UsageError(`unknown stream ${unknown.join(', ')}; choose from ${STREAMS.map((s) => s.name).join(', ')}`);
  return STREAMS.filter((s) => names.includes(s.name));
}
