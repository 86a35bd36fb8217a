import { LedgerpipeError, type ExitKind } from './ledgerpipe-error.js';

/**
 * The extraction cannot go on: retries ran out, a cursor did not move, the platform answered something
 * ledgerpipe cannot read. What was committed stays committed.
 *
 * @example
 * throw new ExtractError('fill-history: cursor did not move (endId 12 after 12)', 'LP_CURSOR_STUCK');
 */
export class ExtractError extends LedgerpipeError {
  constructor(message: string, code: string, options: { exit?: ExitKind; cause?: unknown } = {}) {
    super(message, { code, exit: options.exit ?? 'unexpected', cause: options.cause });
  }
}
