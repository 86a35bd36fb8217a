import { describe, expect, it } from 'vitest';
import { firstCause } from '../../src/errors/first-cause.js';

// DuckDB's own words for a database it gave up on, as a 40-account extract of the bench ended with.
const invalidated = (n: number) => ({
  n,
  reason: new Error(
    'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.',
  ),
});

describe('firstCause', () => {
  it('passes over the failures that only say DuckDB gave up on the database', () => {
    const cause = { n: 3, reason: new Error('FATAL Error: Failed to commit: could not pin block') };
    expect(
      firstCause([invalidated(1), invalidated(2), cause, { n: 4, reason: new Error('40009 sign signature error') }]),
    ).toBe(cause);
  });

  it('is the first failure when none is a consequence, or when all are, and nothing of none', () => {
    const a = { n: 1, reason: '40006 Invalid ACCESS_KEY' };
    expect(firstCause([a, { n: 2, reason: new Error('other') }])).toBe(a);
    const only = [invalidated(1), invalidated(2)];
    expect(firstCause(only)).toBe(only[0]);
    expect(firstCause([])).toBeUndefined();
  });
});
