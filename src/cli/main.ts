#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { runCli } from './run.js';

// A reader that stops early (`ledgerpipe query ... | head`) closes the pipe: that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(hideBin(process.argv)).then((status) => {
  process.exitCode = status;
});
