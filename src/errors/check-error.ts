import { LedgerpipeError } from './ledgerpipe-error.js';

/**
 * A check after the transforms found the ledger inconsistent; the transform was rolled back, so the previous
 * ledger stands. Exit 4.
 *
 * @example
 * throw new CheckError(['ledger keys are unique: entry futures_fills:1:pnl of account default appears 2 times']);
 */
export class CheckError extends LedgerpipeError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    super(
      `the ledger failed its checks, so the previous one was kept: ${problems[0] ?? 'unknown problem'}${more}; report this with the warehouse`,
      {
        code: 'LP_CHECK_FAILED',
        exit: 'incomplete',
      },
    );
    this.problems = problems;
  }
}
