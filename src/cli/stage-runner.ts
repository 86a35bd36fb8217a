import { dirname, resolve } from 'node:path';
import { checkBaseUrl, DEFAULT_CONFIG_PATH, PRIVATE_UMASK, readConfig, resolveAccounts, type Config } from './config.js';
import { parseFiat } from '../prices/valuation.js';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { DEFAULT_POOL, type GainsOptions } from '../gains/gains.js';
import { UsageError } from '../errors/usage-error.js';
import { createLogger } from '../util/logger.js';
import type { Pipeline } from '../pipeline/define.js';
import { runPipeline, type PipelineResult } from '../pipeline/run-pipeline.js';
import { silentProgress, type ProgressReporter } from '../extract/progress.js';
import { periodicProgress, terminalProgress } from './progress.js';
import { gainsLines, notFinalLines, pricesLines, transformSummaryLines, unpricedLines } from './summary.js';
import { parseFormats } from './formats.js';
import type { CliIo } from './io.js';
import { parseRange, parseStreams, type CommonArgs } from './options.js';
import { parseShard } from '../pipeline/shard.js';
import { useCatalog } from '../warehouse/versions.js';
import { reconciliationLines } from './status.js';
import { completenessLines, holdingsLines } from './completeness-lines.js';

/**
 * The lines printed on stdout after a run: per account and stream, then the ledger summary, then the files. The
 * ledger's totals per asset and category (a line each) only with `verbose`.
 */
export function resultLines(result: PipelineResult, options: { verbose?: boolean } = {}): string[] {
  const lines: string[] = [];
  if (result.accounts.length > 0) {
    lines.push('account      stream               windows  skipped    pages   records  outside  requests  429s  retries');
    for (const a of result.accounts) {
      for (const [name, s] of Object.entries(a.extract.streams)) {
        lines.push(
          `${a.account.padEnd(12)} ${name.padEnd(20)} ${String(s.windowsDone).padStart(7)}  ${String(s.windowsSkipped).padStart(7)}  ${String(s.pages).padStart(7)}  ${String(s.records).padStart(8)}  ${String(s.outsideWindow).padStart(7)}  ${String(s.requests).padStart(8)}  ${String(s.rateLimited).padStart(4)}  ${String(s.retries).padStart(7)}`,
        );
      }
    }
  }
  if (result.transform !== undefined) lines.push(...(lines.length > 0 ? [''] : []), ...transformSummaryLines(result.transform, options));
  const notFinal = notFinalLines(result.notFinal);
  if (notFinal.length > 0) lines.push('', ...notFinal);
  if (result.prices !== undefined) lines.push('', ...pricesLines(result.prices));
  const unpriced = unpricedLines(result.unpriced);
  if (unpriced.length > 0) lines.push('', ...unpriced);
  if (result.gains !== undefined) lines.push('', ...gainsLines(result.gains));
  if (result.completeness !== undefined) lines.push('', ...completenessLines(result.completeness));
  const held = holdingsLines(result.holdings);
  if (held.length > 0) lines.push('', ...held);
  if (result.reconciliation.length > 0) {
    lines.push('', 'year-end reconciliation', ...result.reconciliation.flatMap((r) => [`account ${r.account}`, ...reconciliationLines(r.years)]));
  }
  if (result.exports.length > 0) {
    const width = Math.max(4, ...result.exports.map((f) => f.path.length));
    lines.push(...(lines.length > 0 ? [''] : []), `${'file'.padEnd(width)}  rows`);
    for (const f of result.exports) lines.push(`${f.path.padEnd(width)}  ${f.rows ?? '-'}`);
  }
  if (result.lake !== undefined) {
    const accounts = new Set(result.lake.map((p) => p.account)).size;
    lines.push('', `lake: ${result.lake.length} partitions of ${accounts} accounts written, ${result.lake.reduce((n, p) => n + p.rows, 0)} rows`);
  }
  return lines;
}

/** --ip-limit, else the config's ipLimit, else the default (docs/many-accounts.md). */
function ipLimitOf(flag: number | undefined, config: number | undefined): { ipLimit?: number } {
  if (flag !== undefined && !(Number.isInteger(flag) && flag > 0)) throw new UsageError(`--ip-limit ${flag} is not a positive whole number of requests a minute; give one such as 5400`);
  const limit = flag ?? config;
  return limit === undefined ? {} : { ipLimit: limit };
}

/** A path the config file names, as the config's own folder sees it (a config of /etc/lp names /etc/lp/x.csv by ./x.csv). */
function fromConfig(configPath: string | undefined, path: string): string {
  return resolve(dirname(resolve(configPath ?? DEFAULT_CONFIG_PATH)), path);
}

/** --fiat and --fiat-rates, else the config's fiat and fiatRates (docs/values.md). */
function fiatOf(args: CommonArgs, config: Config | undefined): { fiat: string | null; fiatRates?: string } {
  const fiat = parseFiat(args.fiat ?? config?.fiat);
  // The config's rates are its fiat's: a --fiat of another currency does not take them.
  const theConfigs = fiat !== null && config?.fiat !== undefined && fiat === parseFiat(config.fiat);
  const rates = args['fiat-rates'] ?? (theConfigs && config?.fiatRates !== undefined ? fromConfig(args.config, config.fiatRates) : undefined);
  return rates === undefined ? { fiat } : { fiat, fiatRates: rates };
}

/** --cost-basis, --pool, --tax-year-start, --withdrawals and --opening-lots (docs/gains.md). */
function gainsOf(args: CommonArgs): { gains: Omit<GainsOptions, 'timeZone'> } {
  const start = args['tax-year-start'];
  const [month, day] = start.split('-').map(Number);
  if (!/^\d{2}-\d{2}$/.test(start) || Number.isNaN(Date.parse(`2024-${start}T00:00:00Z`)) || (month as number) < 1 || (day as number) < 1) {
    throw new UsageError(`--tax-year-start ${JSON.stringify(start)} is not a day of the year; give MM-DD, such as 04-06 for the UK`);
  }
  const costBasis = args['cost-basis'];
  return { gains: { costBasis, pool: args.pool ?? DEFAULT_POOL[costBasis], taxYearStart: start, withdrawals: args.withdrawals, ...(args['opening-lots'] === undefined ? {} : { openingLots: args['opening-lots'] }) } };
}

function progressFor(args: CommonArgs, io: CliIo, log: ReturnType<typeof createLogger>): ProgressReporter {
  if (args.quiet) return silentProgress;
  if (process.stderr.isTTY === true && args['log-format'] === 'pretty' && io.interactive) return terminalProgress();
  return periodicProgress(log);
}

/**
 * What every pipeline command does: read the flags and the profiles, run the pipeline's stages, print the
 * summary, and fail with exit 4 when the run finished incomplete.
 */
export async function runStages(pipeline: Pipeline, args: CommonArgs, io: CliIo, env: NodeJS.ProcessEnv, command = `run ${pipeline.name}`): Promise<void> {
  const log = createLogger({ format: args['log-format'], quiet: args.quiet, verbose: args.verbose, write: io.log });
  const needsRange = pipeline.range.kind === 'flags' && (pipeline.stages.includes('extract') || pipeline.stages.includes('prices') || pipeline.stages.includes('export'));
  const given = args.year !== undefined || args.from !== undefined || args.to !== undefined;
  const range = needsRange || given ? parseRange(args) : undefined;
  const streams = args.streams === undefined ? undefined : parseStreams(args.streams);
  const formats = args.format === undefined ? undefined : parseFormats(args.format);
  const config = await readConfig(args.config);
  // Before anything is created: the warehouse and the files hold a person's financial records.
  process.umask(config?.umask === undefined ? PRIVATE_UMASK : Number.parseInt(config.umask, 8));
  // Before any version is read: the catalog's covers the user's rows. The config's paths are its folder's.
  await useCatalog(args.catalog ?? (config?.catalog === undefined ? undefined : fromConfig(args.config, config.catalog)));
  const shard = parseShard(args.shard);
  const accounts = pipeline.stages.includes('extract') ? resolveAccounts({ config, profile: args.profile, baseUrl: args['base-url'], env, ...(shard === undefined ? {} : { shard }) }) : [];
  if (shard !== undefined && pipeline.stages.includes('extract') && accounts.length === 0) {
    io.out(`shard ${shard.index}/${shard.count}: none of the config's ${config?.accounts.length ?? 0} accounts falls in it; nothing to do`);
    return;
  }
  // Candles are public: the prices stage alone needs only the platform's address.
  const priceUrl = pipeline.stages.includes('prices') && accounts.length === 0 ? checkBaseUrl(args['base-url'] ?? env['LEDGERPIPE_BASE_URL'] ?? config?.accounts[0]?.baseUrl) : undefined;
  const result = await runPipeline({
    pipeline,
    accounts,
    dbPath: args.db,
    out: args.out,
    ...(range === undefined ? {} : { range: { start: range.from, end: range.to } }),
    tz: args.tz,
    ...(streams === undefined ? {} : { streams }),
    ...(formats === undefined ? {} : { formats }),
    log,
    progress: progressFor(args, io, log),
    rateScale: args['rate-scale'],
    command,
    allowGaps: args['allow-gaps'],
    full: args.full,
    ...fiatOf(args, config),
    ...gainsOf(args),
    ...(priceUrl === undefined ? {} : { priceBaseUrl: priceUrl }),
    ...ipLimitOf(args['ip-limit'], config?.ipLimit),
    ...(args.lake === undefined ? {} : { lake: args.lake }),
    ...(shard === undefined ? {} : { shard }),
    ...(config?.lakeMode === undefined ? {} : { lakeMode: Number.parseInt(config.lakeMode, 8) }),
  });
  for (const line of resultLines(result, { verbose: args.verbose })) io.out(line);
  if (result.incomplete !== undefined) throw new LedgerpipeError(result.incomplete, { code: 'LP_INCOMPLETE', exit: 'incomplete' });
}
