import { describe, expect, it } from 'vitest';
import { narrowedWindowMs } from '../../src/extract/narrowing.js';
import { PlatformError } from '../../src/errors/platform-error.js';
import { TransportError } from '../../src/errors/transport-error.js';

const DAY_MS = 86_400_000;

function refusal(platformCode: string, platformMessage: string, httpStatus = 400): PlatformError {
  return new PlatformError({ path: '/api/v2/tax/margin-record', httpStatus, platformCode, platformMessage });
}

describe('narrowedWindowMs', () => {
  it('takes the number of days from a 00001 message (live service: 30 days where the spec says 366)', () => {
    const error = refusal('00001', 'startTime and endTime interval cannot be greater than 30 days');
    expect(narrowedWindowMs(error, 366 * DAY_MS)).toBe(2_592_000_000);
  });

  it('takes the number of days from a 40705 message', () => {
    const error = refusal('40705', 'The start and end time cannot exceed 90 days');
    expect(narrowedWindowMs(error, 366 * DAY_MS)).toBe(7_776_000_000);
  });

  it('reads one day, in any letter case', () => {
    expect(narrowedWindowMs(refusal('00001', 'interval cannot be greater than 1 day'), 7 * DAY_MS)).toBe(DAY_MS);
    expect(narrowedWindowMs(refusal('40705', 'THE START AND END TIME CANNOT EXCEED 7 DAYS'), 90 * DAY_MS)).toBe(
      7 * DAY_MS,
    );
  });

  it('halves the window when the message names no number of days', () => {
    expect(
      narrowedWindowMs(
        refusal('00001', 'startTime and endTime interval cannot be greater than {n} days'),
        366 * DAY_MS,
      ),
    ).toBe(183 * DAY_MS);
    expect(narrowedWindowMs(refusal('40705', ''), 90 * DAY_MS)).toBe(45 * DAY_MS);
  });

  it('halves, rounding down, when the named window is not narrower than the current one', () => {
    const thirty = refusal('00001', 'startTime and endTime interval cannot be greater than 30 days');
    expect(narrowedWindowMs(thirty, 30 * DAY_MS)).toBe(15 * DAY_MS);
    expect(narrowedWindowMs(thirty, 20 * DAY_MS)).toBe(10 * DAY_MS);
    expect(narrowedWindowMs(thirty, 7)).toBe(3);
  });

  it('halves when the message names zero days', () => {
    expect(narrowedWindowMs(refusal('00001', 'interval cannot be greater than 0 days'), 8 * DAY_MS)).toBe(4 * DAY_MS);
  });

  it('narrows on any code whose message says the window is too wide', () => {
    expect(narrowedWindowMs(refusal('40034', 'the time range cannot be more than 7 days'), 90 * DAY_MS)).toBe(
      7 * DAY_MS,
    );
    expect(narrowedWindowMs(refusal('40019', 'query window longer than 31 days'), 90 * DAY_MS)).toBe(31 * DAY_MS);
  });

  it('is undefined for platform errors that are not about the window', () => {
    expect(narrowedWindowMs(refusal('40009', 'sign signature error'), 30 * DAY_MS)).toBeUndefined();
    expect(narrowedWindowMs(refusal('40303', 'Can only query up to 20,000 data'), 30 * DAY_MS)).toBeUndefined();
    expect(narrowedWindowMs(refusal('20001', 'startTime cannot be greater than endTime'), 30 * DAY_MS)).toBeUndefined();
    expect(narrowedWindowMs(refusal('429', 'Too Many Requests', 429), 30 * DAY_MS)).toBeUndefined();
  });

  it('is undefined for anything that is not a platform error', () => {
    expect(
      narrowedWindowMs(new TransportError('cannot be greater than 30 days', 'LP_NET_FAILED'), 366 * DAY_MS),
    ).toBeUndefined();
    expect(narrowedWindowMs(new Error('cannot be greater than 30 days'), 366 * DAY_MS)).toBeUndefined();
    expect(narrowedWindowMs('cannot be greater than 30 days', 366 * DAY_MS)).toBeUndefined();
    expect(narrowedWindowMs(undefined, 366 * DAY_MS)).toBeUndefined();
  });
});
