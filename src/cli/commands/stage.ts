import { EXPORTED_FILES_TEXT, REPORT } from '../../export/files.js';
import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { CREDENTIALS_HELP, withCommonOptions } from '../options.js';

/**
 * `extract`, `transform`, `prices`, `export` and `report`: one stage of a pipeline alone, with the same flags as `run`
 * (docs/commands.md).
 */
function stageCommand(
  stage: 'extract' | 'transform' | 'prices' | 'export' | 'report',
  describe: string,
  examples: readonly (readonly [string, string])[],
  epilogue?: string,
) {
  return (io: CliIo, env: NodeJS.ProcessEnv) =>
    defineCommand({
      command: stage,
      describe,
      builder: (yargs) => {
        const withExamples = examples.reduce(
          (y, [command, what]) => y.example(command, what),
          withCommonOptions(yargs),
        );
        return epilogue === undefined ? withExamples : withExamples.epilogue(epilogue);
      },
      handler: async (args) => {
        const [{ pipelineSchema }, { runStages }] = await Promise.all([
          import('../../pipeline/define.js'),
          import('../stage-runner.js'),
        ]);
        // `report` is the export of report.html alone.
        const pipeline =
          stage === 'report'
            ? { stages: ['export'], export: { range: 'run', formats: ['report'] } }
            : { stages: [stage] };
        await runStages(
          pipelineSchema.parse({ name: stage, range: { kind: 'flags' }, ...pipeline }),
          args,
          io,
          env,
          stage,
        );
      },
    });
}

export const extractCommand = stageCommand(
  'extract',
  'Fetch every record of the range into the warehouse (raw_records), resuming where a run stopped',
  [
    ['ledgerpipe extract --year 2025 --base-url https://api.example.com', 'Fetch 2025 into ./ledgerpipe.duckdb'],
    ['ledgerpipe extract --from 2025-06-01 --to 2025-07-01 --streams withdrawals', 'One stream, one month'],
  ],
  CREDENTIALS_HELP,
);

export const transformCommand = stageCommand(
  'transform',
  'Book the records loaded since the last transform into the ledger with the SQL in sql/, and check them (--full: everything again from raw_records)',
  [
    ['ledgerpipe transform --db ./ledgerpipe.duckdb', 'After an extract'],
    ['ledgerpipe transform --full', 'Type every record again and make the whole ledger'],
  ],
);

export const pricesCommand = stageCommand(
  'prices',
  "Fetch the platform's public hourly candles for every asset the ledger moves in the range, and value the ledger",
  [
    ['ledgerpipe prices --year 2025', 'USDT prices of every asset of 2025 (ledger_valued, year_summary)'],
    ['ledgerpipe prices --year 2025 --fiat EUR', "And EUR values, from the platform's USDTEUR pair"],
  ],
);

export const reportCommand = stageCommand(
  'report',
  `Write <out>/${REPORT}: coverage, warnings, the per-asset summary, monthly charts, the largest movements`,
  [
    ['ledgerpipe report --year 2025', 'The 2025 report, from the warehouse'],
    [
      'ledgerpipe report --year 2025 --tz Europe/Berlin --fiat EUR --fiat-rates ./eur.csv',
      'A Berlin year, valued in EUR from your rates',
    ],
  ],
);

// Which files: EXPORTED_FILES_TEXT, made from the registry of tables (src/export/files.ts), so the help cannot fall
// behind what the exporter writes.
export const exportCommand = stageCommand(
  'export',
  "Write the range's tables as CSV and Parquet, the tax-software files, the report and manifest.json, as --format says",
  [
    ['ledgerpipe export --year 2025 --out ./exports', 'The 2025 files, in CSV and Parquet'],
    ['ledgerpipe export --year 2025 --tz Europe/Berlin --format csv', 'A Berlin calendar year, CSV only'],
  ],
  `Writes into --out: ${EXPORTED_FILES_TEXT}.`,
);
