#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { runCli } from './run.js';

runCli(hideBin(process.argv)).then((status) => {
  process.exitCode = status;
});
