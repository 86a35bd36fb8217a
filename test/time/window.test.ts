import { describe, expect, it } from 'vitest';
import { planWindows, uncovered, windowParams, type Window } from '../../src/time/window.js';

const DAY_MS = 86_400_000;
/** 2024-01-01T00:00:00Z and 2025-01-01T00:00:00Z: 2024 is a leap year of 366 days. */
const Y2024 = Date.UTC(2024, 0, 1);
const Y2025 = Date.UTC(2025, 0, 1);

const w = (start: number, end: number): Window => ({ start, end });

describe('planWindows', () => {
  it('splits [from, to) into windows of windowMs, the last one cut at to (the documented example)', () => {
    expect(planWindows(0, 25, 10)).toEqual([w(0, 10), w(10, 20), w(20, 25)]);
  });

  it('ends exactly at to when the range is a multiple of the window', () => {
    expect(planWindows(100, 130, 10)).toEqual([w(100, 110), w(110, 120), w(120, 130)]);
  });

  it('gives one window when the range is narrower than the window', () => {
    expect(planWindows(5, 8, 1000)).toEqual([w(5, 8)]);
  });

  it('gives no window for an empty or reversed range', () => {
    expect(planWindows(10, 10, 5)).toEqual([]);
    expect(planWindows(10, 9, 5)).toEqual([]);
  });

  it('plans the year 2024 as five 90-day windows and a 6-day rest, contiguous and half-open', () => {
    const windows = planWindows(Y2024, Y2025, 90 * DAY_MS);
    expect(windows).toEqual([
      w(Y2024, Y2024 + 90 * DAY_MS),
      w(Y2024 + 90 * DAY_MS, Y2024 + 180 * DAY_MS),
      w(Y2024 + 180 * DAY_MS, Y2024 + 270 * DAY_MS),
      w(Y2024 + 270 * DAY_MS, Y2024 + 360 * DAY_MS),
      w(Y2024 + 360 * DAY_MS, Y2025),
    ]);
    expect(Y2025 - Y2024).toBe(366 * DAY_MS);
  });

  it('plans 7-day windows that tile the range with no gap and no overlap', () => {
    const windows = planWindows(Y2024, Y2025, 7 * DAY_MS);
    expect(windows.length).toBe(53);
    expect(windows[0]).toEqual(w(Y2024, Y2024 + 7 * DAY_MS));
    expect(windows.at(-1)).toEqual(w(Y2024 + 364 * DAY_MS, Y2025));
    const seams = windows.slice(1).map((window, i) => window.start - (windows[i] as Window).end);
    expect(new Set(seams)).toEqual(new Set([0]));
  });

  it('refuses a window that is not positive', () => {
    expect(() => planWindows(0, 10, 0)).toThrow(new RangeError('window must be positive, got 0'));
    expect(() => planWindows(0, 10, -5)).toThrow(new RangeError('window must be positive, got -5'));
    expect(() => planWindows(0, 10, Number.NaN)).toThrow(new RangeError('window must be positive, got NaN'));
  });
});

describe('uncovered', () => {
  it('returns the gaps between covered windows (the documented example)', () => {
    expect(uncovered(0, 100, [w(10, 20), w(50, 200)])).toEqual([w(0, 10), w(20, 50)]);
  });

  it('returns the whole range when nothing is covered', () => {
    expect(uncovered(0, 100, [])).toEqual([w(0, 100)]);
  });

  it('returns nothing when the range is covered, also by adjacent windows', () => {
    expect(uncovered(0, 100, [w(0, 100)])).toEqual([]);
    expect(uncovered(0, 100, [w(-50, 500)])).toEqual([]);
    expect(uncovered(0, 100, [w(50, 100), w(0, 50)])).toEqual([]);
  });

  it('sorts the covered windows and merges overlaps', () => {
    expect(uncovered(0, 100, [w(30, 60), w(0, 10), w(5, 35)])).toEqual([w(60, 100)]);
    expect(uncovered(0, 100, [w(70, 80), w(20, 30), w(25, 28)])).toEqual([w(0, 20), w(30, 70), w(80, 100)]);
  });

  it('ignores covered windows outside the range and clips those that cross its ends', () => {
    expect(uncovered(0, 100, [w(-50, -10), w(100, 300)])).toEqual([w(0, 100)]);
    expect(uncovered(0, 100, [w(-50, 20), w(90, 300)])).toEqual([w(20, 90)]);
    expect(uncovered(0, 100, [w(0, 10), w(150, 200)])).toEqual([w(10, 100)]);
  });

  it('returns nothing for an empty range', () => {
    expect(uncovered(100, 100, [])).toEqual([]);
  });

  it('leaves the caller array in its order', () => {
    const covered = [w(50, 60), w(10, 20)];
    uncovered(0, 100, covered);
    expect(covered).toEqual([w(50, 60), w(10, 20)]);
  });
});

describe('windowParams', () => {
  it('asks for [start, end) as startTime=start and endTime=end-1, because the server bounds are inclusive', () => {
    expect(windowParams(w(1_700_000_000_000, 1_700_604_800_000))).toEqual({
      startTime: '1700000000000',
      endTime: '1700604799999',
    });
  });

  it('writes the numbers as plain digits', () => {
    expect(windowParams(w(0, 1))).toEqual({ startTime: '0', endTime: '0' });
    expect(windowParams(w(Y2024, Y2024 + 90 * DAY_MS))).toEqual({
      startTime: '1704067200000',
      endTime: '1711843199999',
    });
  });
});
