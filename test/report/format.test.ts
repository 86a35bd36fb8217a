import { describe, expect, it } from 'vitest';
import { formatDecimal, formatRange } from '../../src/report/format.js';

describe("the report's numbers and dates", () => {
  it.each([
    ['-32068087.72925866007541', 2, true, '-32,068,087.73'],
    ['1234.5', 2, true, '1,234.50'],
    ['0.005', 2, true, '0.01'],
    ['-0.004', 2, true, '0.00'],
    ['999.995', 2, true, '1,000.00'],
    ['99999999999999999999.999999999999999999', 2, true, '100,000,000,000,000,000,000.00'],
    ['0.100000000000000000', 8, false, '0.1'],
    ['-12.123456789', 8, false, '-12.12345679'],
    ['1000000', 8, false, '1,000,000'],
    ['-0.000000001', 8, false, '0'],
  ] as const)('%s to %d decimals', (exact, decimals, fixed, shown) => {
    expect(formatDecimal(exact, decimals, fixed)).toBe(shown);
  });

  it('writes a range of whole days as its first and last day, in the time zone; other ranges with their times', () => {
    expect(formatRange({ start: Date.UTC(2025, 0, 1), end: Date.UTC(2026, 0, 1) }, 'UTC')).toBe(
      '1 January 2025 to 31 December 2025',
    );
    expect(formatRange({ start: Date.UTC(2024, 11, 31, 23), end: Date.UTC(2025, 11, 31, 23) }, 'Europe/Berlin')).toBe(
      '1 January 2025 to 31 December 2025',
    );
    expect(formatRange({ start: Date.UTC(2025, 5, 1), end: Date.UTC(2025, 5, 2) }, 'UTC')).toBe('1 June 2025');
    expect(formatRange({ start: Date.UTC(2025, 5, 1, 12), end: Date.UTC(2025, 5, 2) }, 'UTC')).toBe(
      '1 June 2025 at 12:00 to 2 June 2025 at 00:00 (the end not included)',
    );
  });
});
