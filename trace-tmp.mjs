import * as require_fs from 'node:fs';
import { DuckDBConnection } from '@duckdb/node-api';
const stats = []; let depth = 0;
const t0 = performance.now();
for (const name of ['run', 'runAndReadAll', 'runAndRead', 'streamAndReadAll','streamAndReadUntil','runAndReadUntil','stream','streamAndRead']) {
  const orig = DuckDBConnection.prototype[name];
  if (!orig) continue;
  DuckDBConnection.prototype[name] = async function (sql, ...rest) {
    const s = performance.now(); depth++;
    try { return await orig.call(this, sql, ...rest); }
    finally { depth--; if (depth===0) stats.push([performance.now() - s, s - t0, String(sql).replace(/\s+/g, ' ').slice(0, 110)]); }
  };
}
process.on('exit', () => {
  const total = stats.reduce((a, b) => a + b[0], 0);
  process.stderr.write(`TRACE ${stats.length} statements, ${total.toFixed(0)} ms, process ${(performance.now()-t0).toFixed(0)} ms\n`);
  require_fs.writeFileSync(process.env.TRACE_OUT||'/tmp/prof/trace.tsv', stats.map(x=>x.map(String).join('\t')).join('\n')); const top=[];
  for (const [d, at, q] of top) process.stderr.write(`TRACE ${d.toFixed(0).padStart(6)} @${at.toFixed(0).padStart(6)} ${q}\n`);
});
