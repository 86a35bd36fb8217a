import { LedgerpipeError } from './ledgerpipe-error.js';

/**
 * The warehouse cannot be opened or written: held by another process (exit 75), a full disk, a file
 * that is not a DuckDB database.
 *
 * @example
 * throw new WarehouseError('./ledgerpipe.duckdb is in use by another ledgerpipe run (PID 42); try again when it ends', 'LP_LOCKED', 'locked');
 */
export class WarehouseError extends LedgerpipeError {
  constructor(message: string, code: string, exit: 'locked' | 'unexpected' | 'usage' = 'unexpected', cause?: unknown) {
    super(message, { code, exit, cause });
  }
}
