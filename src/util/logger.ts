export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Where library code reports what it does; injected, never imported as a singleton. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  format: 'pretty' | 'json';
  /** Only errors. */
  quiet?: boolean;
  verbose?: boolean;
  /** One line out (default: stderr). */
  write?: (line: string) => void;
  clock?: () => number;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Lines to stderr: `pretty` for people, `json` (one object per line) for machines.
 *
 * @example
 * const log = createLogger({ format: 'json' });
 * log.info('window done', { stream: 'withdrawals', records: 12 });
 * // {"time":"2026-01-01T00:00:00.000Z","level":"info","msg":"window done","stream":"withdrawals","records":12}
 */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const clock = options.clock ?? Date.now;
  const min = options.quiet === true ? ORDER.error : options.verbose === true ? ORDER.debug : ORDER.info;
  const emit =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (ORDER[level] < min) return;
      if (options.format === 'json') {
        write(JSON.stringify({ time: new Date(clock()).toISOString(), level, msg: message, ...fields }));
        return;
      }
      const extra = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ');
      write(`${level === 'info' ? '' : `${level}: `}${message}${extra === '' ? '' : ` (${extra})`}`);
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
