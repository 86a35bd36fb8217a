import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors/usage-error.js';
import { EXPORT_FORMATS, exportFiles, type ExportFormat } from '../../export/exporter.js';
import { openWarehouse } from '../../warehouse/warehouse.js';
import type { CliIo } from '../io.js';
import { parseRange, withCommonOptions, type CommonArgs } from '../options.js';

/** The formats named by --format. */
export function parseFormats(list: string): ExportFormat[] {
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((n) => !(EXPORT_FORMATS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`unknown --format ${unknown.join(', ') || '(empty)'}; choose from ${EXPORT_FORMATS.join(', ')}`);
  }
  return names as ExportFormat[];
}

/** `ledgerpipe export`: write the CSV and Parquet files of a range from the warehouse. */
export function exportCommand(io: CliIo): CommandModule<object, CommonArgs> {
  return {
    command: 'export',
    describe: 'Write margin_records, futures_fills, withdrawals and ledger for the range as CSV and Parquet',
    builder: (yargs: Argv) =>
      withCommonOptions(yargs)
        .example('ledgerpipe export --year 2025 --out ./exports', 'The 2025 files, in CSV and Parquet')
        .example('ledgerpipe export --year 2025 --tz Europe/Berlin --format csv', 'A Berlin calendar year, CSV only') as unknown as Argv<CommonArgs>,
    handler: async (args) => {
      const range = parseRange(args);
      const formats = parseFormats(args.format);
      const warehouse = await openWarehouse(args.db);
      try {
        const files = await exportFiles(warehouse, { out: args.out, ...range, formats });
        for (const f of files) io.out(`${f.path}  ${f.rows} rows`);
      } finally {
        await warehouse.close();
      }
    },
  };
}
