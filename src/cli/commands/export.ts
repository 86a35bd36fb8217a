import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors/usage-error.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../export/exporter.js';
import { pipelineSchema } from '../../pipeline/define.js';
import type { CliIo } from '../io.js';
import { withCommonOptions, type CommonArgs } from '../options.js';
import { runStages } from '../stage-runner.js';

/** The formats named by --format. */
export function parseFormats(list: string): ExportFormat[] {
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((n) => !(EXPORT_FORMATS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`unknown --format ${unknown.join(', ') || '(empty)'}; choose from ${EXPORT_FORMATS.join(', ')}`);
  }
  return names as ExportFormat[];
}

const exportOnly = pipelineSchema.parse({ name: 'export', range: { kind: 'flags' }, stages: ['export'] });

/** `ledgerpipe export`: write the CSV and Parquet files of a range from the warehouse. */
export function exportCommand(io: CliIo, env: NodeJS.ProcessEnv): CommandModule<object, CommonArgs> {
  return {
    command: 'export',
    describe: 'Write margin_records, futures_fills, withdrawals and ledger for the range as CSV and Parquet',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs)
        .example('ledgerpipe export --year 2025 --out ./exports', 'The 2025 files, in CSV and Parquet')
        .example('ledgerpipe export --year 2025 --tz Europe/Berlin --format csv', 'A Berlin calendar year, CSV only') as unknown as Argv<CommonArgs>,
    handler: (args) => runStages(exportOnly, args, io, env, 'export'),
  };
}
