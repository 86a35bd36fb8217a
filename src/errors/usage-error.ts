import { LedgerpipeError } from './ledgerpipe-error.js';

/**
 * Bad flags, dates or configuration: exit 2, never retried.
 *
 * @example
 * throw new UsageError('--from must be before --to');
 */
export class UsageError extends LedgerpipeError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'LP_USAGE', exit: 'usage', cause });
  }
}
