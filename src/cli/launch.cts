#!/usr/bin/env node
// The `ledgerpipe` binary. libuv starts its thread pool at the first file an ES module import reads, taking
// UV_THREADPOOL_SIZE as it is then: so this file is CommonJS, sizes the pool, and only then imports the CLI.
import threadpool = require('../runtime/threadpool.cjs');

process.env['UV_THREADPOOL_SIZE'] = threadpool.threadPoolSize();
void import('./main.js');
