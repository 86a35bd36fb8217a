#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { PRIVATE_UMASK } from './config.js';
import { configureDuckDBAllocator } from '../duckdb/duckdb-allocator.js';

// Before DuckDB's library loads, so the rest of the CLI (which imports it) comes in afterwards.
configureDuckDBAllocator();
// What ledgerpipe creates holds a person's financial records: the owner's alone (0600 files, 0700 folders). A
// config file may set another umask for the pipeline commands (src/cli/config.ts).
process.umask(PRIVATE_UMASK);
const { runCli } = await import('./run.js');

// A reader that stops early (`ledgerpipe query ... | head`) closes the pipe: that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(hideBin(process.argv)).then((status) => {
  process.exitCode = status;
});
