/**
 * A busy account's year-end as a user runs it: `ledgerpipe run year-end --year 2025` in a process of its own,
 * at the default memory budget, against a simulator year of N futures fills with every other stream scaled
 * alike (a year of 1M fills holds 356k margin records, read in windows split by 40303). Measures the
 * run's wall time and peak RSS, and checks that it exits 0.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSimulator, stopChild } from './sim-process.js';

export interface BusyYearFigures {
  fills: number;
  wallSeconds: number;
  peakRssMb: number;
  /** The run's last stderr lines but warnings (the simulator's undocumented types): its summary. */
  summary: string[];
}

const MAIN = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
const REPORT_RSS = pathToFileURL(fileURLToPath(new URL('./report-rss.js', import.meta.url))).href;

export async function measureBusyYear(fills: number, signal: AbortSignal): Promise<BusyYearFigures> {
  const { child: sim, info } = await spawnSimulator({
    records: fills,
    rateScale: 1000,
    startTimeoutMs: 300_000,
    seed: 'busy',
    pendingSeconds: 0,
  });
  const dir = await mkdtemp(join(tmpdir(), 'lp-busy-'));
  try {
    const rssFile = join(dir, 'rss');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LEDGERPIPE_API_KEY: info.apiKey,
      LEDGERPIPE_API_SECRET: info.secretKey,
      LEDGERPIPE_API_PASSPHRASE: info.passphrase,
      LEDGERPIPE_BENCH_RSS_FILE: rssFile,
    };
    // The default budget, whatever the shell that runs the bench says.
    delete env['LEDGERPIPE_MEMORY_LIMIT'];
    const args = [
      '--import',
      REPORT_RSS,
      MAIN,
      'run',
      'year-end',
      '--year',
      '2025',
      '--base-url',
      info.baseUrl,
      '--rate-scale',
      '1000',
    ];
    args.push('--db', join(dir, 'busy.duckdb'), '--out', join(dir, 'exports'));
    const started = performance.now();
    const run = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], signal });
    let stderr = '';
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-16_384)));
    const [code] = (await once(run, 'exit')) as [number | null];
    const wallSeconds = (performance.now() - started) / 1000;
    const summary = stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('warn:'))
      .slice(-6);
    if (code !== 0)
      throw new Error(`run year-end over ${fills} fills exited with ${String(code)}: ${summary.join(' | ')}`);
    return { fills, wallSeconds, peakRssMb: Number(await readFile(rssFile, 'utf8')), summary };
  } finally {
    await stopChild(sim);
    await rm(dir, { recursive: true, force: true });
  }
}
