/**
 * What DuckDB answers every statement after it has given up on a database (a fatal error: a failed commit or
 * rollback): a consequence of that error, never its cause.
 */
const INVALIDATED = /database has been invalidated/i;

/**
 * Of failures in the order they came, the one to report: the first that is not only DuckDB refusing a database
 * it had given up on, else the first. When one account's commit fails fatally, the other accounts' next
 * statements fail with "database has been invalidated", and any of them may settle first.
 *
 * @example
 * firstCause([{ reason: new Error('...database has been invalidated...') }, { reason: new Error('Could not pin block') }])
 * // => the second
 */
export function firstCause<T extends { reason: unknown }>(failures: readonly T[]): T | undefined {
  return (
    failures.find((f) => !INVALIDATED.test(f.reason instanceof Error ? f.reason.message : String(f.reason))) ??
    failures[0]
  );
}
