import { EXPORTED_FILES_TEXT } from '../../export/files.js';
import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { CREDENTIALS_HELP, withCommonOptions } from '../options.js';

/** `ledgerpipe run <pipeline>`: extract, transform and export as a pipeline says. */
export function runCommand(io: CliIo, env: NodeJS.ProcessEnv) {
  return defineCommand({
    command: 'run <pipeline>',
    describe:
      'Extract, transform and export as a pipeline says: year-end, nightly, or a path to your own pipeline file',
    builder: (yargs) =>
      withCommonOptions(yargs)
        .positional('pipeline', {
          type: 'string',
          demandOption: true,
          describe: 'year-end, nightly, or a .json/.js pipeline file',
        })
        .example('ledgerpipe run year-end --year 2025', 'The whole of 2025: warehouse, ledger and exports')
        .example('ledgerpipe run nightly', 'From where the last run stopped to now, with a 3-day look-back')
        .example('ledgerpipe run ./my-pipeline.json --year 2025', 'Your own pipeline file (docs/pipelines.md)')
        .epilogue(
          `The export stage writes into --out (year-end: every format): ${EXPORTED_FILES_TEXT}.\n\n${CREDENTIALS_HELP}`,
        ),
    handler: async (args) => {
      const [{ loadPipeline }, { runStages }] = await Promise.all([
        import('../../pipeline/load.js'),
        import('../stage-runner.js'),
      ]);
      await runStages(await loadPipeline(args.pipeline), args, io, env);
    },
  });
}
