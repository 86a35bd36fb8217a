#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { sizeThreadPool } from '../runtime/threadpool.js';
import { runCli } from './run.js';

sizeThreadPool();

// A reader that stops early (`ledgerpipe query ... | head`) closes the pipe: that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(hideBin(process.argv)).then((status) => {
  process.exitCode = status;
});
