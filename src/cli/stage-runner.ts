import { dirname, resolve } from 'node:path';
import {
  checkBaseUrl,
  DEFAULT_CONFIG_PATH,
  PRIVATE_UMASK,
  readConfig,
  resolveAccounts,
  type Config,
} from './config.js';
import { parseFiat, refuseUnvaluedFiat } from '../prices/valuation.js';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import type { GivenSettings } from '../pipeline/settings.js';
import { historyLines } from '../pipeline/history.js';
import { assertTimeZone, formatInstant, parseInstant } from '../time/instant.js';
import { UsageError } from '../errors/usage-error.js';
import { createLogger } from '../util/logger.js';
import { stateDir } from '../util/state-dir.js';
import type { Pipeline } from '../pipeline/define.js';
import { runPipeline, type PipelineResult } from '../pipeline/run-pipeline.js';
import { silentProgress, type ProgressReporter } from '../extract/progress.js';
import { periodicProgress, terminalProgress } from './progress.js';
import { gainsLines, notFinalLines, pricesLines, transformSummaryLines, unpricedLines } from './summary.js';
import { parseFormats } from './formats.js';
import type { CliIo } from './io.js';
import { parseRangeSpec, parseStreams, type CommonArgs } from './options.js';
import { parseShard } from '../pipeline/shard.js';
import { planStages } from '../pipeline/stage-plan.js';
import { reconciliationLines } from './status.js';
import { plausibilityLines } from './plausibility-lines.js';
import { completenessLines, holdingsLines, residualLines } from './completeness-lines.js';

/**
 * The lines printed on stdout after a run: per account and stream, then the ledger summary, then the files. The
 * ledger's totals per asset and category (a line each) only with `verbose`.
 */
export function resultLines(result: PipelineResult, options: { verbose?: boolean } = {}): string[] {
  const lines: string[] = [];
  const period = result.exported?.period;
  if (period?.toDate === true) {
    const upTo = result.exported?.readUpTo;
    lines.push(
      `${period.label}: the range ends after the present; its records were read up to ${upTo === undefined ? 'now' : formatInstant(upTo)}, and later runs read the rest`,
      '',
    );
  }
  if (result.accounts.length > 0) lines.push(...streamTableLines(result.accounts));
  if (result.transform !== undefined)
    lines.push(...(lines.length > 0 ? [''] : []), ...transformSummaryLines(result.transform, options));
  const notFinal = notFinalLines(result.notFinal);
  if (notFinal.length > 0) lines.push('', ...notFinal);
  if (result.prices !== undefined) lines.push('', ...pricesLines(result.prices));
  const unpriced = unpricedLines(result.unpriced);
  if (unpriced.length > 0) lines.push('', ...unpriced);
  lines.push(...plausibilityLines(result.plausibility ?? []));
  if (result.gains !== undefined) lines.push('', ...gainsLines(result.gains));
  if (result.history !== undefined && result.settings !== undefined)
    lines.push(...historyLines(result.history, result.settings, result.gains?.unit ?? 'USDT'));
  const finalAt = result.exported?.gainsFinalAt;
  if (finalAt !== undefined) {
    lines.push(
      `the UK rules match a disposal with the acquisitions of the 30 days after it: the last disposals of ${result.exported?.period.label ?? 'the range'} are final once the records up to ${formatInstant(finalAt)} are read; run year-end again after then`,
    );
  }
  if (result.completeness !== undefined) lines.push('', ...completenessLines(result.completeness, result.holdings));
  const held = holdingsLines(result.holdings);
  if (held.length > 0) lines.push('', ...held);
  const beside = residualLines(result.residuals ?? { loans: [], bots: [] });
  if (beside.length > 0) lines.push('', ...beside);
  if (result.reconciliation.length > 0) {
    lines.push(
      '',
      'year-end reconciliation',
      ...result.reconciliation.flatMap((r) => [`account ${r.account}`, ...reconciliationLines(r.years)]),
    );
  }
  if (result.exports.length > 0) {
    const width = Math.max(4, ...result.exports.map((f) => f.path.length));
    lines.push(...(lines.length > 0 ? [''] : []), `${'file'.padEnd(width)}  rows`);
    for (const f of result.exports) lines.push(`${f.path.padEnd(width)}  ${f.rows ?? '-'}`);
  }
  if (result.lake !== undefined) {
    const accounts = new Set(result.lake.map((p) => p.account)).size;
    lines.push(
      '',
      `lake: ${result.lake.length} partitions of ${accounts} accounts written, ${result.lake.reduce((n, p) => n + p.rows, 0)} rows`,
    );
  }
  return lines;
}

/** The extract's table: a header, then a line per account and stream with its windows, pages and requests. */
function streamTableLines(accounts: PipelineResult['accounts']): string[] {
  const lines = [
    'account      stream               windows  skipped    pages   records  outside  requests  429s  retries',
  ];
  for (const a of accounts) {
    for (const [name, s] of Object.entries(a.extract.streams)) {
      lines.push(
        `${a.account.padEnd(12)} ${name.padEnd(20)} ${String(s.windowsDone).padStart(7)}  ${String(s.windowsSkipped).padStart(7)}  ${String(s.pages).padStart(7)}  ${String(s.records).padStart(8)}  ${String(s.outsideWindow).padStart(7)}  ${String(s.requests).padStart(8)}  ${String(s.rateLimited).padStart(4)}  ${String(s.retries).padStart(7)}`,
      );
    }
  }
  return lines;
}

/** --ip-limit, else the config's ipLimit, else the default (docs/many-accounts.md). */
function ipLimitOf(flag: number | undefined, config: number | undefined): { ipLimit?: number } {
  if (flag !== undefined && !(Number.isInteger(flag) && flag > 0))
    throw new UsageError(
      `--ip-limit ${flag} is not a positive whole number of requests a minute; give one such as 5400`,
    );
  const limit = flag ?? config;
  return limit === undefined ? {} : { ipLimit: limit };
}

/**
 * A path the config file names, as the config's own folder sees it (a config of /etc/lp names /etc/lp/x.csv by
 * ./x.csv).
 */
function fromConfig(configPath: string | undefined, path: string): string {
  return resolve(dirname(resolve(configPath ?? DEFAULT_CONFIG_PATH)), path);
}

/**
 * The settings this command gives (docs/settings.md): its flags, else the config's fiat, fiatRates and catalog
 * (whose paths are the config's folder's). What it does not give, the warehouse keeps.
 */
function givenSettings(args: CommonArgs, config: Config | undefined): GivenSettings {
  const given: GivenSettings = {};
  const fiatText = args.fiat ?? config?.fiat;
  if (fiatText !== undefined) given.fiat = parseFiat(fiatText);
  // The config's rates are its fiat's: a --fiat of another currency does not take them.
  const theConfigs =
    given.fiat !== undefined &&
    given.fiat !== null &&
    config?.fiat !== undefined &&
    given.fiat === parseFiat(config.fiat);
  const rates =
    args['fiat-rates'] ??
    (theConfigs && config?.fiatRates !== undefined ? fromConfig(args.config, config.fiatRates) : undefined);
  if (rates !== undefined) {
    if (given.fiat === undefined || given.fiat === null)
      throw new UsageError(
        '--fiat-rates gives the rates of a fiat: give --fiat with it (the currency its rates are in)',
      );
    given.fiatRates = rates;
  }
  // A fiat nothing values is refused now, before the warehouse is opened or a request sent.
  if (given.fiat !== undefined && given.fiat !== null) refuseUnvaluedFiat(given.fiat, rates);
  if (args.tz !== undefined) {
    assertTimeZone(args.tz);
    given.timeZone = args.tz;
  }
  if (args['cost-basis'] !== undefined) given.costBasis = args['cost-basis'];
  if (args.pool !== undefined) given.pool = args.pool;
  const start = args['tax-year-start'];
  if (start !== undefined) {
    const [month, day] = start.split('-').map(Number);
    if (
      !/^\d{2}-\d{2}$/.test(start) ||
      Number.isNaN(Date.parse(`2024-${start}T00:00:00Z`)) ||
      (month as number) < 1 ||
      (day as number) < 1
    ) {
      throw new UsageError(
        `--tax-year-start ${JSON.stringify(start)} is not a day of the year; give MM-DD, such as 04-06 for the UK`,
      );
    }
    given.taxYearStart = start;
  }
  if (args.withdrawals !== undefined) given.withdrawals = args.withdrawals;
  if (args['opening-lots'] !== undefined) given.openingLots = args['opening-lots'];
  const catalog = args.catalog ?? (config?.catalog === undefined ? undefined : fromConfig(args.config, config.catalog));
  if (catalog !== undefined) given.catalog = catalog;
  if (args.history === false && args['history-from'] !== undefined)
    throw new UsageError('give --no-history or --history-from, not both');
  if (args.history === false) given.historyFrom = 'none';
  if (args['history-from'] !== undefined) {
    // Checked now, read in the warehouse's time zone once the settings are settled.
    parseInstant(args['history-from'], 'UTC', '--history-from');
    given.historyFrom = { date: args['history-from'] };
  }
  if (args.history === true) given.historyFrom = 'opening';
  return given;
}

/** --ecb-url or LEDGERPIPE_ECB_URL, checked now: an http(s) address (docs/values.md, "A fiat"). */
function ecbUrlOf(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(
      `--ecb-url ${text} is not an http(s) address; give the ECB data service's, such as https://data-api.ecb.europa.eu/service`,
    );
  }
  return text;
}

function progressFor(args: CommonArgs, io: CliIo, log: ReturnType<typeof createLogger>): ProgressReporter {
  if (args.quiet) return silentProgress;
  if (process.stderr.isTTY === true && args['log-format'] === 'pretty' && io.interactive) return terminalProgress();
  return periodicProgress(log);
}

/** The accounts the run extracts: --profile or the config's, with --base-url, only the shard's with --shard. */
function accountsOf(
  args: CommonArgs,
  config: Config | undefined,
  env: NodeJS.ProcessEnv,
  shard: ReturnType<typeof parseShard>,
) {
  return resolveAccounts({
    config,
    profile: args.profile,
    baseUrl: args['base-url'],
    env,
    ...(shard === undefined ? {} : { shard }),
  });
}

/** The platform's address for candles when no account is extracted: --base-url, the environment, the config. */
function priceBaseUrlOf(args: CommonArgs, config: Config | undefined, env: NodeJS.ProcessEnv) {
  return checkBaseUrl(args['base-url'] ?? env['LEDGERPIPE_BASE_URL'] ?? config?.accounts[0]?.baseUrl);
}

/**
 * What every pipeline command does: read the flags and the profiles, run the pipeline's stages, print the
 * summary, and fail with exit 4 when the run finished incomplete.
 */
export async function runStages(
  pipeline: Pipeline,
  args: CommonArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv,
  command = `run ${pipeline.name}`,
): Promise<void> {
  const log = createLogger({ format: args['log-format'], quiet: args.quiet, verbose: args.verbose, write: io.log });
  const range = parseRangeSpec(args);
  const plan = planStages(pipeline.stages);
  const needsRange = pipeline.range.kind === 'flags' && (plan.extract || plan.prices || plan.export);
  if (needsRange && range === undefined)
    throw new UsageError('give the range: --year YYYY, --tax-year YYYY-YY, or --from and --to (ISO dates)');
  const streams = args.streams === undefined ? undefined : parseStreams(args.streams);
  const formats = args.format === undefined ? undefined : parseFormats(args.format);
  const config = await readConfig(args.config);
  // Before anything is created: the warehouse and the files hold a person's financial records.
  process.umask(config?.umask === undefined ? PRIVATE_UMASK : Number.parseInt(config.umask, 8));
  const given = givenSettings(args, config);
  const shard = parseShard(args.shard);
  const accounts = plan.extract ? accountsOf(args, config, env, shard) : [];
  if (shard !== undefined && plan.extract && accounts.length === 0) {
    io.out(
      `shard ${shard.index}/${shard.count}: none of the config's ${config?.accounts.length ?? 0} accounts falls in it; nothing to do`,
    );
    return;
  }
  // Candles are public: the prices stage alone needs only the platform's address.
  const priceUrl = plan.prices && accounts.length === 0 ? priceBaseUrlOf(args, config, env) : undefined;
  const ecbUrl = ecbUrlOf(args['ecb-url'] ?? env['LEDGERPIPE_ECB_URL']);
  const result = await runPipeline({
    pipeline,
    accounts,
    dbPath: args.db,
    ...(args.out === undefined ? {} : { out: args.out }),
    ...(range === undefined ? {} : { range }),
    given,
    ...(streams === undefined ? {} : { streams }),
    ...(formats === undefined ? {} : { formats }),
    log,
    progress: progressFor(args, io, log),
    rateScale: args['rate-scale'],
    command,
    allowGaps: args['allow-gaps'],
    full: args.full,
    ...(priceUrl === undefined ? {} : { priceBaseUrl: priceUrl }),
    ...(ecbUrl === undefined ? {} : { ecbUrl }),
    ...ipLimitOf(args['ip-limit'], config?.ipLimit),
    // The IP budget is the machine's, shared through the state directory (docs/many-accounts.md).
    stateDir: stateDir(env),
    ...(args.lake === undefined ? {} : { lake: args.lake }),
    ...(shard === undefined ? {} : { shard }),
    ...(config?.lakeMode === undefined ? {} : { lakeMode: Number.parseInt(config.lakeMode, 8) }),
  });
  for (const line of resultLines(result, { verbose: args.verbose })) io.out(line);
  if (result.incomplete !== undefined)
    throw new LedgerpipeError(result.incomplete, { code: 'LP_INCOMPLETE', exit: 'incomplete' });
}
