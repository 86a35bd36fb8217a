/** What a command may touch of the process: results to stdout, logs to stderr, signals. Tests hand in fakes. */
export interface CliIo {
  /** One line of results on stdout. */
  out(line: string): void;
  /** One log line on stderr. */
  log(line: string): void;
  /** Resolves on SIGINT or SIGTERM. */
  untilSignal(): Promise<void>;
  /** Whether a person watches (live progress lines); false in tests and pipes. */
  interactive: boolean;
}

export const processIo: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  log: (line) => void process.stderr.write(`${line}\n`),
  interactive: process.stderr.isTTY === true,
  untilSignal: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};
