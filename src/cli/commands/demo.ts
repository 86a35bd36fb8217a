import { join } from 'node:path';
import { createLogger } from '../../util/logger.js';
import { silentProgress } from '../../extract/progress.js';
import { periodicProgress, terminalProgress } from '../progress.js';
import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { lastFullYear } from './sim.js';

/** The queries the demo suggests; the README and a test run them too. */
export function demoQueries(db: string): string[] {
  return [
    `npx ledgerpipe query --db ${db} "SELECT c.tax_class, l.category, count(*) AS entries FROM ledger AS l JOIN category_meaning AS c USING (category) GROUP BY ALL ORDER BY 1, 2"`,
    `npx ledgerpipe query --db ${db} "SELECT asset, category, count(*) AS entries, lp_total(amount) AS total FROM ledger GROUP BY ALL ORDER BY asset, category"`,
    `npx ledgerpipe query --db ${db} "SELECT asset, tax_class, amount, value_usdt, value_eur FROM year_summary WHERE tax_class IN ('realized_pnl', 'trading_fee', 'funding') ORDER BY tax_class, asset"`,
    `npx ledgerpipe query --db ${db} "SELECT strftime(ts, '%Y-%m') AS month, lp_total(profit) AS realized_pnl, lp_total(fee) AS fees FROM futures_fills WHERE margin_coin = 'USDT' GROUP BY ALL ORDER BY month"`,
    `npx ledgerpipe query --db ${db} "SELECT status, count(*) AS withdrawals, lp_total(size) AS size FROM withdrawals GROUP BY ALL ORDER BY status"`,
  ];
}

/** `ledgerpipe demo`: the simulator in-process and a year-end run against it, no account needed. */
export function demoCommand(io: CliIo) {
  return defineCommand({
    command: 'demo',
    describe: 'Start the simulator in-process and run year-end for last calendar year into ./demo-out/ (no account needed)',
    builder: (yargs) =>
      yargs
        .option('out', { type: 'string', default: './demo-out', describe: 'Folder for the demo warehouse and exports' })
        .option('quiet', { type: 'boolean', default: false, describe: 'Log errors only' })
        .option('log-format', { choices: ['pretty', 'json'] as const, default: 'pretty' as const, describe: 'Log lines for people or machines (stderr)' })
        .option('rate-scale', { type: 'number', default: 1, hidden: true, describe: 'Multiplies the simulated rate limits' })
        .example('npx ledgerpipe demo', 'See it work in under a minute'),
    handler: async (args) => {
      const [{ EXPORT_FORMATS }, { loadPipeline }, { runPipeline }, { startSimulator }, { resultLines }] = await Promise.all([
        import('../../export/exporter.js'),
        import('../../pipeline/load.js'),
        import('../../pipeline/run-pipeline.js'),
        import('../../sim/server.js'),
        import('../stage-runner.js'),
      ]);
      const log = createLogger({ format: args['log-format'], quiet: args.quiet, write: io.log });
      const year = lastFullYear(Date.now());
      const sim = await startSimulator({ seed: 'demo', ...year, records: 2000, rateScale: args['rate-scale'] });
      const db = join(args.out, 'ledgerpipe.duckdb');
      const exportsDir = join(args.out, 'exports');
      log.info(`demo: simulator on ${sim.baseUrl}; running year-end for ${new Date(year.from).getUTCFullYear()} at the platform's real rate limits`);
      try {
        const result = await runPipeline({
          pipeline: await loadPipeline('year-end'),
          accounts: [{ name: 'demo', baseUrl: sim.baseUrl, credentials: sim.credentials }],
          dbPath: db,
          out: exportsDir,
          range: { start: year.from, end: year.to },
          tz: 'UTC',
          // Every format: the tables as CSV and Parquet, and the files for Koinly and CoinTracking.
          formats: EXPORT_FORMATS,
          log,
          progress: args.quiet ? silentProgress : io.interactive && args['log-format'] === 'pretty' ? terminalProgress() : periodicProgress(log),
          rateScale: args['rate-scale'],
          // Values in EUR too, from the simulator's USDTEUR candles.
          fiat: 'EUR',
        });
        for (const line of resultLines(result)) io.out(line);
        io.out('');
        io.out(`warehouse: ${db}`);
        io.out(`exports:   ${exportsDir}/ (margin_records, futures_fills, withdrawals, ledger, year_summary as .csv and .parquet; koinly.csv, cointracking.csv; report.html, manifest.json)`);
        io.out('try:');
        for (const q of demoQueries(db)) io.out(`  ${q}`);
      } finally {
        await sim.close();
      }
    },
  });
}
