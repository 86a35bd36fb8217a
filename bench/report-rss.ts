/**
 * Preloaded into a process the benchmark measures (`node --import .../report-rss.js ...`): when the process
 * exits, it writes its peak RSS in MB to the file LEDGERPIPE_BENCH_RSS_FILE names. The CLI runs unchanged.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['LEDGERPIPE_BENCH_RSS_FILE'];
if (file !== undefined) {
  // ru_maxrss is in kilobytes on Linux.
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS / 1024)));
}
