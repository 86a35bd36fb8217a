import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { createLogger } from '../util/logger.js';
import { describeMemoryBudget, isOutOfMemory, memoryAdvice } from '../duckdb/memory-budget.js';

/** What an error says, its stable code, and the status to exit with. */
function failure(error: unknown): { message: string; code: string; status: number } {
  if (error instanceof LedgerpipeError)
    return { message: error.message, code: error.code, status: EXIT_STATUS[error.exit] };
  if (isOutOfMemory(error)) {
    return {
      message: `the warehouse needed more memory than its budget (${describeMemoryBudget()}); ${memoryAdvice()}; committed work is kept`,
      code: 'LP_OUT_OF_MEMORY',
      status: EXIT_STATUS.unexpected,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `unexpected failure: ${message.split('\n')[0]}; rerun with the same flags (committed work is kept) and report it if it persists`,
    code: 'LP_UNEXPECTED',
    status: EXIT_STATUS.unexpected,
  };
}

/**
 * The one line printed for an error, and the status to exit with. With `--log-format json` the line is a log
 * object like the others, with the error's code and the exit status, so a machine reading the log reads it too.
 */
export function describeFailure(
  error: unknown,
  options: { format?: 'pretty' | 'json'; clock?: () => number } = {},
): { line: string; status: number } {
  const { format = 'pretty', clock = Date.now } = options;
  const { message, code, status } = failure(error);
  if (format === 'json') {
    // The logger's own JSON line, so the last line has the shape of every other.
    let line = '';
    createLogger({ format: 'json', clock, write: (text) => (line = text) }).error(message, { code, exit: status });
    return { line, status };
  }
  return { line: `ledgerpipe: ${message}`, status };
}

/** The log format asked for on the command line, read from the words themselves: parsing may be what failed. */
export function logFormatOf(argv: readonly string[]): 'pretty' | 'json' {
  let given: string | undefined;
  for (const [i, word] of argv.entries()) {
    if (word === '--log-format') given = argv[i + 1];
    else if (word.startsWith('--log-format=')) given = word.slice('--log-format='.length);
  }
  return given === 'json' ? 'json' : 'pretty';
}
