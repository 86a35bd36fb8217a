import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';

/** The one line printed for an error, and the status to exit with. */
export function describeFailure(error: unknown): { line: string; status: number } {
  if (error instanceof LedgerpipeError) return { line: `ledgerpipe: ${error.message}`, status: EXIT_STATUS[error.exit] };
  const message = error instanceof Error ? error.message : String(error);
  return {
    line: `ledgerpipe: unexpected failure: ${message.split('\n')[0]}; rerun with the same flags (committed work is kept) and report it if it persists`,
    status: EXIT_STATUS.unexpected,
  };
}
