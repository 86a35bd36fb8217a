import { LedgerpipeError } from './ledgerpipe-error.js';

/**
 * No usable answer: connection refused or reset, a timeout, a 5xx page that is not JSON, a truncated or
 * malformed body. Worth another try, except an answer the same request would bring again (one too large).
 *
 * @example
 * throw new TransportError('GET /api/v2/public/time: connection reset', 'LP_NET_RESET', { cause });
 */
export class TransportError extends LedgerpipeError {
  constructor(message: string, code: string, options: { cause?: unknown; retryable?: boolean } = {}) {
    super(message, { code, retryable: options.retryable ?? true, exit: 'incomplete', cause: options.cause });
  }
}
