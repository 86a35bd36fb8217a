import { LedgerpipeError, type ExitKind } from '../errors/ledgerpipe-error.js';

/** Exit statuses of contract.md, "Exit codes". */
export const EXIT_STATUS: Record<ExitKind | 'ok', number> = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  incomplete: 4,
  locked: 75,
};

/** The one line printed for an error, and the status to exit with. */
export function describeFailure(error: unknown): { line: string; status: number } {
  if (error instanceof LedgerpipeError) return { line: `ledgerpipe: ${error.message}`, status: EXIT_STATUS[error.exit] };
  const message = error instanceof Error ? error.message : String(error);
  return {
    line: `ledgerpipe: unexpected failure: ${message.split('\n')[0]}; rerun with the same flags (committed work is kept) and report it if it persists`,
    status: EXIT_STATUS.unexpected,
  };
}
