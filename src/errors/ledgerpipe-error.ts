/** What the CLI does with an error: its exit status (docs/exit-codes.md). */
export type ExitKind = 'unexpected' | 'usage' | 'auth' | 'incomplete' | 'locked';

/** Exit statuses of the docs/exit-codes.md. */
export const EXIT_STATUS: Record<ExitKind | 'ok', number> = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  incomplete: 4,
  locked: 75,
};

export interface LedgerpipeErrorOptions {
  /** A stable code callers match on, e.g. `LP_USAGE`, `LP_RATE_LIMITED`. */
  code: string;
  /** True when the same request may succeed if tried again. */
  retryable?: boolean;
  exit?: ExitKind;
  cause?: unknown;
}

/**
 * The one base of every error ledgerpipe throws: a stable `code`, a `retryable` flag and a `cause`.
 * Messages are one line that says what happened and what to do, and never hold a secret.
 *
 * @example
 * throw new LedgerpipeError('--from 2025-13-01 is not a date; use YYYY-MM-DD', { code: 'LP_USAGE', exit: 'usage' });
 */
export class LedgerpipeError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly exit: ExitKind;

  constructor(message: string, options: LedgerpipeErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.exit = options.exit ?? 'unexpected';
  }
}
