import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/util/package-root.js';

// `npm run build`, after tsc: the CLI as one file, dist/ledgerpipe.js, which the package's bin runs. The CLI starts
// once per command, and the tests start it hundreds of times: from ~300 modules (ours, zod's 95, yargs's, undici's)
// Node resolved, read and compiled each before the first query; one file loads with less of that
// (docs/performance.md, "Start-up"). DuckDB's API and ECharts stay outside: both are loaded with require from the
// package's node_modules (src/duckdb/duckdb.ts, src/report/charts.ts), and DuckDB's is a native library.
const root = packageRoot();
const outfile = join(root, 'dist', 'ledgerpipe.js');
await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@duckdb/node-api', 'echarts'],
  // Packages bundled from CommonJS call require for Node's own modules: an ES module has none of its own.
  banner: {
    js: "import { createRequire as lpCreateRequire } from 'node:module'; const require = lpCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
