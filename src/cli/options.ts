import type { Argv, InferredOptionTypes, Options } from 'yargs';
import { UsageError } from '../errors/usage-error.js';
import { STREAMS } from '../streams/index.js';
import type { StreamDef } from '../streams/stream.js';
import type { RangeSpec } from '../time/period.js';
import { parseInstant } from '../time/instant.js';

/** Flags every pipeline command shares (docs/commands.md). */
const COMMON_OPTIONS = {
  from: { type: 'string', describe: 'Start of the range, inclusive: ISO date (midnight in --tz) or date-time' },
  to: { type: 'string', describe: 'End of the range, exclusive' },
  // Read as text, so that a mistyped year is quoted as typed (`--year twenty`), not as NaN.
  year: { type: 'string', describe: 'A calendar year in --tz: [YYYY-01-01, YYYY+1-01-01)' },
  'tax-year': {
    type: 'string',
    describe: 'A tax year, YYYY-YY: the year that starts on --tax-year-start in YYYY (2025-26)',
  },
  tz: {
    type: 'string',
    describe: "IANA time zone for dates, years and --year (the warehouse's setting; UTC at first)",
  },
  'base-url': { type: 'string', describe: "The platform's API address (or LEDGERPIPE_BASE_URL)" },
  db: { type: 'string', default: './ledgerpipe.duckdb', describe: 'The DuckDB warehouse file' },
  out: {
    type: 'string',
    describe: 'Folder for exported files, as given (default: ./exports/<period>/, such as ./exports/2025/)',
  },
  streams: {
    type: 'string',
    describe: `Comma list of streams (default all): ${STREAMS.map((s) => s.name).join(', ')}`,
  },
  format: {
    type: 'string',
    describe:
      "Export formats, comma list: csv, parquet, koinly, cointracking, report (default: the pipeline's; year-end writes them all)",
  },
  config: { type: 'string', describe: 'Profiles file (default ./ledgerpipe.config.json when present)' },
  profile: { type: 'string', describe: 'Run one profile of the config file' },
  'log-format': {
    choices: ['pretty', 'json'] as const,
    default: 'pretty' as const,
    describe: 'Log lines for people or machines (stderr)',
  },
  quiet: { type: 'boolean', default: false, describe: 'Log errors only' },
  verbose: {
    type: 'boolean',
    default: false,
    describe: 'Log more: the time of each transform step, and the ledger totals per asset and category in the summary',
  },
  fiat: {
    type: 'string',
    describe:
      "Also value every movement in this fiat currency: EUR, or any the ECB publishes a euro rate for (GBP, USD, ...), or another with --fiat-rates; value_<fiat> columns, Koinly Net Worth (or the config's fiat); kept by the warehouse; none to stop",
  },
  'fiat-rates': {
    type: 'string',
    describe:
      "CSV of USDT rates for --fiat (time,currency,rate), for a currency the ECB does not publish, or to use your own rates (or the config's fiatRates)",
  },
  'ecb-url': {
    type: 'string',
    describe:
      "The ECB's data service, read for the euro rates of a fiat the platform has no USDT<fiat> pair for (default https://data-api.ecb.europa.eu/service, or LEDGERPIPE_ECB_URL)",
  },
  catalog: {
    type: 'string',
    describe:
      "CSV of your own type-catalog rows, the columns of sql/seeds/type_catalog.csv: each adds a type or replaces the package's row of the same source, field and type (or the config's catalog); kept by the warehouse; none to go back to the package's rows",
  },
  'cost-basis': {
    choices: ['fifo', 'hifo', 'average', 'uk'] as const,
    describe:
      'How disposals are matched with acquisitions for realized gains (docs/gains.md; the warehouse keeps it; fifo at first)',
  },
  pool: {
    choices: ['account', 'all'] as const,
    describe:
      'Lots per account, or one pool of every account (default: account for fifo and hifo, all for average and uk)',
  },
  'tax-year-start': {
    type: 'string',
    describe: 'MM-DD: the first day of a tax year (01-01 at first; 04-06 in the UK)',
  },
  withdrawals: {
    choices: ['transfer', 'disposal'] as const,
    describe:
      'Coins withdrawn to outside: moved to your own wallet, leaving the lots without a gain (transfer, at first), or disposed of at their value (disposal)',
  },
  'opening-lots': {
    type: 'string',
    describe:
      'CSV of lots held before the first record: account,asset,quantity,cost,currency,acquired_at (kept by the warehouse)',
  },
  'history-from': {
    type: 'string',
    describe:
      "Read the streams that carry acquisitions back to this date for the cost basis (default: the account's opening, its registration time)",
  },
  history: {
    type: 'boolean',
    describe: '--no-history: read no history before the range (the gains may then lack acquisitions, and say so)',
  },
  lake: {
    type: 'string',
    describe:
      'Also write the tables as Hive-partitioned Parquet in this folder: <lake>/<table>/account=<name>/year=<yyyy>/data.parquet',
  },
  shard: {
    type: 'string',
    describe: "Run the i-th of n parts of the config's accounts, i from 0 to n-1 (a Kubernetes completion index)",
  },
  'ip-limit': {
    type: 'number',
    describe:
      "Requests a minute to one platform address over every account (default 5400: the live cap 6000 less 10%; or the config's ipLimit)",
  },
  full: {
    type: 'boolean',
    default: false,
    describe:
      'Transform: make every typed table and the ledger again from raw_records, not only the records loaded since the last transform',
  },
  'allow-gaps': {
    type: 'boolean',
    default: false,
    describe: 'Write the files even when the warehouse does not cover the whole range (the run still exits 4)',
  },
  'rate-scale': {
    type: 'number',
    default: 1,
    hidden: true,
    describe: 'Multiplies the rate limits; only for a simulator started with the same --rate-scale',
  },
} as const satisfies Record<string, Options>;

/** Where the commands that read an account find its credentials: the help of each says so. */
export const CREDENTIALS_HELP =
  'Credentials come from the environment, never from flags: LEDGERPIPE_API_KEY, LEDGERPIPE_API_SECRET and LEDGERPIPE_API_PASSPHRASE (a read-only API key is enough), or the variables each account of --config names.';

/** The flags every pipeline command shares, as their options type them. */
export type CommonArgs = InferredOptionTypes<typeof COMMON_OPTIONS>;

/** Adds the shared flags to a command's parser; the result types its arguments. */
export function withCommonOptions<T>(yargs: Argv<T>) {
  return yargs.options(COMMON_OPTIONS);
}

/**
 * The range --year, --tax-year or --from/--to ask for, read once the warehouse's time zone is known
 * (time/period.ts); undefined when none is given. The flags' own shape is checked here, at once.
 */
export function parseRangeSpec(args: Pick<CommonArgs, 'from' | 'to' | 'year' | 'tax-year'>): RangeSpec | undefined {
  const given = [
    args.year !== undefined && '--year',
    args['tax-year'] !== undefined && '--tax-year',
    (args.from !== undefined || args.to !== undefined) && '--from/--to',
  ].filter((g) => g !== false);
  if (given.length > 1) throw new UsageError(`give one of ${given.join(', ')}, not both`);
  if (args.year !== undefined) {
    if (/^\d{4}-\d{2}$/.test(args.year))
      throw new UsageError(
        `--year ${args.year} is a tax year: give --tax-year ${args.year} (the year that starts on the tax-year start in ${args.year.slice(0, 4)})`,
      );
    if (!/^\d{4}$/.test(args.year))
      throw new UsageError(`--year ${JSON.stringify(args.year)} is not a year; use a four-digit year such as 2025`);
    return { kind: 'year', year: Number(args.year) };
  }
  const taxYear = args['tax-year'];
  if (taxYear !== undefined) {
    const m = /^(\d{4})-(\d{2})$/.exec(taxYear);
    if (m === null || (Number(m[1]) + 1) % 100 !== Number(m[2]))
      throw new UsageError(
        `--tax-year ${JSON.stringify(taxYear)} is not a tax year; give the year it starts in and the next, such as 2025-26`,
      );
    return { kind: 'tax-year', year: Number(m[1]) };
  }
  if (args.from === undefined && args.to === undefined) return undefined;
  if (args.from === undefined || args.to === undefined)
    throw new UsageError('give the range: --year YYYY, --tax-year YYYY-YY, or --from and --to (ISO dates)');
  // Their shape and order at once, before anything is opened; read again in the warehouse's time zone after.
  if (parseInstant(args.from, 'UTC', '--from') >= parseInstant(args.to, 'UTC', '--to'))
    throw new UsageError(`--from ${args.from} must be before --to ${args.to}`);
  return { kind: 'between', from: args.from, to: args.to };
}

/** The streams named by --streams, all of them by default. */
export function parseStreams(list: string | undefined): StreamDef[] {
  if (list === undefined || list.trim() === '') return [...STREAMS];
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !STREAMS.some((s) => s.name === n));
  if (unknown.length > 0)
    throw new UsageError(`unknown stream ${unknown.join(', ')}; choose from ${STREAMS.map((s) => s.name).join(', ')}`);
  return STREAMS.filter((s) => names.includes(s.name));
}
