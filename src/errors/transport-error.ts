import { LedgerpipeError } from './ledgerpipe-error.js';

/**
 * No usable answer: connection refused or reset, a timeout, a 5xx page that is not JSON, a truncated or
 * malformed body. Always worth another try.
 *
 * @example
 * throw new TransportError('GET /api/v2/public/time: connection reset', 'LP_NET_RESET', cause);
 */
export class TransportError extends LedgerpipeError {
  constructor(message: string, code: string, cause?: unknown) {
    super(message, { code, retryable: true, exit: 'incomplete', cause });
  }
}
