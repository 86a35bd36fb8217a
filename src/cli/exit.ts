import { EXIT_STATUS, LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { describeMemoryBudget, isOutOfMemory } from '../warehouse/warehouse.js';

/** The one line printed for an error, and the status to exit with. */
export function describeFailure(error: unknown): { line: string; status: number } {
  if (error instanceof LedgerpipeError) return { line: `ledgerpipe: ${error.message}`, status: EXIT_STATUS[error.exit] };
  if (isOutOfMemory(error)) {
    return {
      line: `ledgerpipe: the warehouse needed more memory than its budget (${describeMemoryBudget()}); set LEDGERPIPE_MEMORY_LIMIT higher (for example 1GB) and run again (committed work is kept)`,
      status: EXIT_STATUS.unexpected,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    line: `ledgerpipe: unexpected failure: ${message.split('\n')[0]}; rerun with the same flags (committed work is kept) and report it if it persists`,
    status: EXIT_STATUS.unexpected,
  };
}
