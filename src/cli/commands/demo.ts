import { basename, join } from 'node:path';
import type { PipelineResult } from '../../pipeline/run-pipeline.js';
import { completenessLines, residualLines } from '../completeness-lines.js';
import { describeImplausible } from '../plausibility-lines.js';
import { createLogger } from '../../util/logger.js';
import { silentProgress } from '../../extract/progress.js';
import { periodicProgress, terminalProgress } from '../progress.js';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { lastFullYear } from './sim.js';

/** The queries the demo suggests; a test runs them too (test/cli/demo.test.ts). */
export function demoQueries(db: string): string[] {
  return [
    `npx ledgerpipe query --db ${db} "SELECT c.tax_class, l.category, count(*) AS entries FROM ledger AS l JOIN category_meaning AS c USING (category) GROUP BY ALL ORDER BY 1, 2"`,
    `npx ledgerpipe query --db ${db} "SELECT asset, category, count(*) AS entries, lp_total(amount) AS total FROM ledger GROUP BY ALL ORDER BY asset, category"`,
    `npx ledgerpipe query --db ${db} "SELECT asset, tax_class, amount, value_usdt, value_eur FROM year_summary WHERE tax_class IN ('realized_pnl', 'trading_fee', 'funding') ORDER BY tax_class, asset"`,
    `npx ledgerpipe query --db ${db} "SELECT strftime(ts, '%Y-%m') AS month, lp_total(profit) AS realized_pnl, lp_total(fee) AS fees FROM futures_fills WHERE margin_coin = 'USDT' GROUP BY ALL ORDER BY month"`,
    `npx ledgerpipe query --db ${db} "SELECT status, count(*) AS withdrawals, lp_total(size) AS size FROM withdrawals GROUP BY ALL ORDER BY status"`,
  ];
}

/**
 * What a newcomer reads after the demo: what ran, whether it is complete, what to review, where the files are,
 * what to try next, and the command that does the same on an account. `--verbose` prints the run's whole
 * summary before it.
 */
export function demoSummaryLines(
  result: PipelineResult,
  where: { year: number; db: string; exportsDir: string; unified?: boolean },
): string[] {
  const streams = result.accounts.flatMap((a) => Object.values(a.extract.streams));
  const records = streams.reduce((n, s) => n + s.records, 0);
  const requests = streams.reduce((n, s) => n + s.requests, 0);
  const ledger = result.transform?.rows['ledger'] ?? 0;
  const unreviewed = new Set((result.transform?.unreviewed ?? []).map((u) => `${u.source} ${u.field} ${u.type}`)).size;
  const review = [
    ...(unreviewed > 0
      ? [
          `${unreviewed} type${unreviewed === 1 ? '' : 's'} the type catalog lacks, booked as unreviewed (ledgerpipe status --db ${where.db} lists them)`,
        ]
      : []),
    ...result.unpriced.map(
      (u) =>
        `${u.entries} ${u.asset} movement${u.entries === 1 ? '' : 's'} without a ${u.missing === 'usdt' ? 'USDT price' : `${u.missing} rate`}, left without a value`,
    ),
    ...unmatchedLines(result),
    ...(result.plausibility ?? []).slice(0, 3).map((i) => describeImplausible(i)),
    ...((result.plausibility ?? []).length > 3
      ? [
          `${(result.plausibility ?? []).length - 3} more movements far outside the account's scale (SELECT * FROM plausibility)`,
        ]
      : []),
  ];
  const files = [...new Set(result.exports.map((f) => basename(f.path)))];
  return [
    `year-end ${where.year} of a simulated ${where.unified === true ? 'unified trading account (the v3 endpoints: docs/unified-accounts.md)' : 'account'}: ${records.toLocaleString('en-US')} records in ${requests.toLocaleString('en-US')} requests, ${ledger.toLocaleString('en-US')} ledger rows, valued in USDT and EUR`,
    ...(result.completeness === undefined ? [] : completenessLines(result.completeness, result.holdings)),
    ...residualLines(result.residuals ?? { loans: [], bots: [] }),
    ...historyLine(result, where.year),
    ...(review.length === 0 ? [] : ['to review:', ...review.map((r) => `  ${r}`)]),
    '',
    `files in ${where.exportsDir}/: ${files.join(', ')}`,
    `  open ${join(where.exportsDir, 'report.html')} in a browser: the year as a statement`,
    `warehouse: ${where.db}; try:`,
    ...demoQueries(where.db)
      .slice(0, 3)
      .map((q) => `  ${q}`),
    '',
    'the same on your own account (a read-only API key; README, "Using it with your account"):',
    '  export LEDGERPIPE_API_KEY=... LEDGERPIPE_API_SECRET=... LEDGERPIPE_API_PASSPHRASE=...',
    `  npx ledgerpipe run year-end --year ${where.year} --fiat EUR`,
    '(--verbose prints the whole summary: every stream, table, holding and file)',
  ];
}

/** Where the cost basis's history was read from, and whether every disposal of the year found its acquisition. */
function historyLine(result: PipelineResult, year: number): string[] {
  const opening = result.history?.from[0]?.at;
  if (opening === undefined || result.gains === undefined) return [];
  const matched =
    (result.history?.unmatched.length ?? 0) === 0 ? `: every disposal of ${year} has its acquisition` : '';
  return [
    `cost basis (${result.gains.costBasis}, in ${result.gains.unit}): history read back to the account's opening, ${new Date(opening).toISOString().slice(0, 10)}${matched}`,
  ];
}

/** The year's disposals with no acquisition, if any: an account read back to its opening has none (docs/history.md). */
function unmatchedLines(result: PipelineResult): string[] {
  const unmatched = result.history?.unmatched ?? [];
  if (unmatched.length === 0) return [];
  const slices = unmatched.reduce((n, u) => n + u.slices, 0);
  return [
    `${slices} disposal slices of the year with no acquisition (${unmatched.map((u) => `${u.asset} ${u.quantity}`).join(', ')}): zero cost, flagged in disposals (docs/history.md)`,
  ];
}

/** `ledgerpipe demo`: the simulator in-process and a year-end run against it, no account needed. */
export function demoCommand(io: CliIo) {
  return defineCommand({
    command: 'demo',
    describe:
      'Start the simulator in-process and run year-end for last calendar year into ./demo-out/ (no account needed)',
    builder: demoOptions,
    handler: (args) => runDemo(io, args),
  });
}

/** The demo's options and examples; its handler's arguments are typed from them (`DemoArgs`). */
function demoOptions(yargs: Argv) {
  return yargs
    .option('out', { type: 'string', default: './demo-out', describe: 'Folder for the demo warehouse and exports' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Log errors only' })
    .option('verbose', {
      type: 'boolean',
      default: false,
      describe: "The run's whole summary (every stream, table, holding and file), and each transform step's time",
    })
    .option('log-format', {
      choices: ['pretty', 'json'] as const,
      default: 'pretty' as const,
      describe: 'Log lines for people or machines (stderr)',
    })
    .option('rate-scale', {
      type: 'number',
      default: 1,
      hidden: true,
      describe: 'Multiplies the simulated rate limits',
    })
    .option('account-mode', {
      choices: ['classic', 'uta'] as const,
      default: 'classic' as const,
      describe: 'The kind of account simulated: classic, or a unified trading account (docs/unified-accounts.md)',
    })
    .example('npx ledgerpipe demo', 'See it work in under a minute')
    .example(
      'npx ledgerpipe demo --account-mode uta',
      'The same with a unified trading account, read through the v3 endpoints',
    );
}

type DemoArgs = ArgumentsCamelCase<ReturnType<typeof demoOptions> extends Argv<infer T> ? T : never>;

/** What the demo runs, imported when it runs so that `--help` loads nothing heavy (no DuckDB). */
function loadDemoModules() {
  return Promise.all([
    import('../../pipeline/load.js'),
    import('../../pipeline/run-pipeline.js'),
    import('../../sim/server.js'),
    import('../stage-runner.js'),
    import('../../sim/data/uta/dataset.js'),
  ]);
}

/** Starts the simulator, runs year-end against it, prints the summary, and closes the simulator whatever happens. */
async function runDemo(io: CliIo, args: DemoArgs): Promise<void> {
  const [{ loadPipeline }, { runPipeline }, { startSimulator }, { resultLines }, { copyProjectOf }] =
    await loadDemoModules();
  const log = createLogger({ format: args['log-format'], quiet: args.quiet, verbose: args.verbose, write: io.log });
  const year = lastFullYear(Date.now());
  // The retail account a client could have, opened years before the year (docs/simulator.md).
  // With --account-mode uta, a unified trading account opened a few days into the year (docs/simulator.md).
  const sim = await startSimulator({
    seed: 'retail',
    dataset: 'retail',
    accountMode: args['account-mode'],
    ...year,
    rateScale: args['rate-scale'],
  });
  const db = join(args.out, 'ledgerpipe.duckdb');
  const exportsRoot = join(args.out, 'exports');
  log.info(
    `demo: simulator on ${sim.baseUrl}; running year-end for ${new Date(year.from).getUTCFullYear()} at the platform's real rate limits`,
  );
  try {
    const result = await runPipeline({
      pipeline: await loadPipeline('year-end'),
      // The unified account copies a lead trader in a project its config would name (docs/unified-accounts.md).
      accounts: [
        {
          name: 'demo',
          baseUrl: sim.baseUrl,
          credentials: sim.credentials,
          ...(args['account-mode'] === 'uta'
            ? { copyTrading: { projects: [copyProjectOf('retail')], leadTrader: false } }
            : {}),
        },
      ],
      dbPath: db,
      // The year's files in their period's folder: demo-out/exports/<year>/.
      exportsRoot,
      range: { kind: 'year', year: new Date(year.from).getUTCFullYear() },
      // year-end's own formats (every one), as `run year-end` writes them on an account.
      log,
      progress: demoProgress(io, args, log),
      rateScale: args['rate-scale'],
      // Values in EUR too, from the simulator's USDTEUR candles; dates in UTC.
      given: { fiat: 'EUR', timeZone: 'UTC' },
    });
    const lines = args.verbose ? [...resultLines(result, { verbose: true }), ''] : [];
    const where = {
      year: new Date(year.from).getUTCFullYear(),
      db,
      exportsDir: result.exported?.dir ?? join(exportsRoot, String(new Date(year.from).getUTCFullYear())),
      unified: args['account-mode'] === 'uta',
    };
    for (const line of [...lines, ...demoSummaryLines(result, where)]) io.out(line);
  } finally {
    await sim.close();
  }
}

/** No progress with --quiet; a live bar on a terminal with pretty logs; otherwise a log line now and then. */
function demoProgress(io: CliIo, args: DemoArgs, log: ReturnType<typeof createLogger>) {
  return args.quiet
    ? silentProgress
    : io.interactive && args['log-format'] === 'pretty'
      ? terminalProgress()
      : periodicProgress(log);
}
