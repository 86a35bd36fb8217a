import cliProgress from 'cli-progress';
import type { ProgressReporter } from '../extract/progress.js';
import type { StreamStats } from '../extract/stats.js';
import type { Logger } from '../util/logger.js';

interface Line {
  stats: StreamStats;
  started: number;
}

function rate(line: Line, now: number): number {
  const seconds = (now - line.started) / 1000;
  return seconds > 0 ? line.stats.requests / seconds : 0;
}

/** Seconds left, from windows done so far; undefined until one is done. */
function eta(line: Line, now: number): number | undefined {
  const { windowsDone, windowsPlanned } = line.stats;
  if (windowsDone === 0 || windowsPlanned === 0) return undefined;
  return (((now - line.started) / windowsDone) * (windowsPlanned - windowsDone)) / 1000;
}

/**
 * On a terminal: one live line per account and stream (windows done of total, records, requests per second,
 * retries, ETA), drawn by cli-progress on stderr.
 */
export function terminalProgress(clock: () => number = Date.now): ProgressReporter {
  const multibar = new cliProgress.MultiBar(
    {
      stream: process.stderr,
      clearOnComplete: false,
      hideCursor: true,
      format:
        '{name} [{bar}] {value}/{total} windows | {records} records | {rps} req/s | {retries} retries | ETA {eta}',
      barsize: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: cliProgress.SingleBar; line: Line }>();
  return {
    update: (account, stream, stats) => {
      const id = `${account}/${stream}`;
      let entry = bars.get(id);
      if (entry === undefined) {
        entry = { bar: multibar.create(Math.max(1, stats.windowsPlanned), 0), line: { stats, started: clock() } };
        bars.set(id, entry);
      }
      entry.line.stats = stats;
      const now = clock();
      const left = eta(entry.line, now);
      entry.bar.setTotal(Math.max(1, stats.windowsPlanned));
      entry.bar.update(stats.windowsDone, {
        name: id.padEnd(28),
        records: stats.records,
        rps: rate(entry.line, now).toFixed(1),
        retries: stats.retries,
        eta: left === undefined ? '-' : `${Math.ceil(left)}s`,
      });
    },
    stop: () => multibar.stop(),
  };
}

/** Off a terminal (cron, CI): one plain log line per account and stream every `everyMs` (default 5 s). */
export function periodicProgress(log: Logger, clock: () => number = Date.now, everyMs = 5000): ProgressReporter {
  const lines = new Map<string, Line & { reported: number; finished: boolean }>();
  return {
    update: (account, stream, stats) => {
      const id = `${account}/${stream}`;
      const now = clock();
      const line = lines.get(id) ?? { stats, started: now, reported: now, finished: false };
      line.stats = stats;
      lines.set(id, line);
      if (line.finished) return;
      // The line that says a stream is done is always written, once.
      const finished = stats.windowsPlanned > 0 && stats.windowsDone >= stats.windowsPlanned;
      if (!finished && now - line.reported < everyMs) return;
      line.reported = now;
      line.finished = finished;
      const left = eta(line, now);
      log.info(`${id}: ${stats.windowsDone}/${stats.windowsPlanned} windows, ${stats.records} records`, {
        reqPerSec: Number(rate(line, now).toFixed(1)),
        retries: stats.retries,
        etaSeconds: left === undefined ? undefined : Math.ceil(left),
      });
    },
    stop: () => {},
  };
}
